/**
 * `npm version` bumps manifest.json and versions.json together with package.json (the `version`
 * script, scripts/version-bump.mjs), and tags the release with the bare version the release
 * workflow is triggered by. Run in a temporary git repository holding copies of the files, never
 * in the working tree.
 */
import { copyReleaseFiles, run, type ReleaseCopy } from "./releaseFiles";

const gitIdentity = {
  GIT_AUTHOR_NAME: "Зоя Ким 金",
  GIT_AUTHOR_EMAIL: "zoya@example.invalid",
  GIT_COMMITTER_NAME: "Зоя Ким 金",
  GIT_COMMITTER_EMAIL: "zoya@example.invalid",
};

describe("npm version", () => {
  let copy: ReleaseCopy;
  let before: { manifest: Record<string, unknown>; versions: Record<string, unknown> };

  beforeEach(() => {
    copy = copyReleaseFiles(["package.json", "package-lock.json", "manifest.json", "versions.json", ".npmrc", "scripts/version-bump.mjs"]);
    before = { manifest: copy.readJson("manifest.json"), versions: copy.readJson("versions.json") };
    for (const args of [["init", "-q"], ["add", "-A"], ["commit", "-qm", "start"]]) {
      expect(run("git", args, copy.root, gitIdentity).status).toBe(0);
    }
  });
  afterEach(() => copy.remove());

  it("0.2.0 --no-git-tag-version updates package.json, manifest.json and versions.json together", () => {
    const result = run("npm", ["version", "0.2.0", "--no-git-tag-version"], copy.root);
    expect(result.stderr).not.toMatch(/ERR/);
    expect(result.status).toBe(0);

    expect(copy.readJson("package.json").version).toBe("0.2.0");
    expect(copy.readJson("package-lock.json").version).toBe("0.2.0");
    expect(copy.readJson("manifest.json")).toEqual({ ...before.manifest, version: "0.2.0" });
    expect(copy.readJson("versions.json")).toEqual({ ...before.versions, "0.2.0": before.manifest.minAppVersion });
    // Staged by the script, so a tagging `npm version` commits all three.
    expect(run("git", ["diff", "--cached", "--name-only"], copy.root).stdout.split("\n").filter(Boolean).sort()).toEqual(["manifest.json", "versions.json"]);
  });

  it("patch commits all three files and tags the bare version, as the release workflow expects", () => {
    const current = String(copy.readJson("package.json").version);
    const [major, minor, patch] = current.split(".").map(Number);
    const next = `${major}.${minor}.${patch! + 1}`;
    const result = run("npm", ["version", "patch"], copy.root, gitIdentity);
    expect(result.status).toBe(0);

    expect(run("git", ["tag", "--list"], copy.root).stdout.trim()).toBe(next);
    const committed = run("git", ["show", "--name-only", "--format=%s", "HEAD"], copy.root).stdout.split("\n").filter(Boolean);
    expect(committed[0]).toBe(next);
    expect(committed.slice(1).sort()).toEqual(["manifest.json", "package-lock.json", "package.json", "versions.json"]);
    expect(JSON.parse(run("git", ["show", `${next}:manifest.json`], copy.root).stdout).version).toBe(next);
    expect(JSON.parse(run("git", ["show", `${next}:versions.json`], copy.root).stdout)[next]).toBe(before.manifest.minAppVersion);
  });

  it("refuses a manifest whose minAppVersion is not x.y.z, saying so, and leaves manifest.json and versions.json as they were", () => {
    copy.writeJson("manifest.json", { ...before.manifest, minAppVersion: "１.１１" });
    const manifestBefore = copy.readJson("manifest.json");
    const result = run("npm", ["version", "0.3.0", "--no-git-tag-version"], copy.root);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(`version-bump: manifest.json's minAppVersion "１.１１" is not x.y.z; fix it before bumping.`);
    expect(copy.readJson("manifest.json")).toEqual(manifestBefore);
    expect(copy.readJson("versions.json")).toEqual(before.versions);
  });
});
