/**
 * .github/workflows/release.yml is a workflow GitHub will run: it passes GitHub's own workflow
 * schema (@actions/workflow-parser, the parser behind the Actions language service), runs on a
 * pushed version tag with write access to releases, does the checks before it builds the draft,
 * and attaches the three files Obsidian downloads. The release notes script it calls prints the
 * bundle size and the version's changelog section.
 */
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow } from "@actions/workflow-parser";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { repoRoot, run } from "./releaseFiles";

const workflowPath = join(repoRoot, ".github/workflows/release.yml");

function schemaErrors(name: string, content: string): string[] {
  const result = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  return result.context.errors.getErrors().map((error) => error.message);
}

interface Step {
  uses?: string;
  run?: string;
  name?: string;
}

describe("the release workflow", () => {
  const content = readFileSync(workflowPath, "utf8");

  it("passes GitHub's workflow schema", async () => {
    expect(schemaErrors("release.yml", content)).toEqual([]);
    const parsed = parseWorkflow({ name: "release.yml", content }, new NoOperationTraceWriter());
    const template = await convertWorkflowTemplate(parsed.context, parsed.value!);
    expect(template.errors ?? []).toEqual([]);
    expect(template.jobs.map((job) => job.id.value)).toEqual(["release"]);
  });

  it("is refused by the schema when a key is misspelt or a step has neither uses nor run", () => {
    const misspelt = content.replace("permissions:\n  contents: write", "permission:\n  contents: write");
    expect(misspelt).not.toBe(content);
    expect(schemaErrors("release.yml", misspelt)).toEqual([expect.stringContaining("Unexpected value 'permission'")]);
    const emptyStep = content.replace("      - run: npm ci --no-audit --no-fund", "      - name: Установить зависимости 依存関係");
    expect(emptyStep).not.toBe(content);
    expect(schemaErrors("release.yml", emptyStep).length).toBeGreaterThan(0);
  });

  it("runs on a pushed x.y.z tag with write access to releases, checks before it drafts, and attaches the three files", () => {
    const workflow = parse(content) as {
      on: { push: { tags: string[] } };
      permissions: Record<string, string>;
      jobs: Record<string, { steps: Step[] }>;
    };
    expect(workflow.on.push.tags).toEqual(["[0-9]+.[0-9]+.[0-9]+"]);
    expect(workflow.permissions).toEqual({ contents: "write" });
    const steps = workflow.jobs.release!.steps;
    for (const step of steps) expect(Boolean(step.uses) !== Boolean(step.run)).toBe(true);
    const runs = steps.map((step) => step.run ?? `uses ${step.uses}`);
    const order = ["uses actions/checkout", "GITHUB_REF_NAME", "npm ci", "npm run typecheck", "npm run lint", "npm run build", "npm run release:check", "npm test", "gh release create"].map(
      (needle) => runs.findIndex((text) => text.includes(needle)),
    );
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((left, right) => left - right)).toEqual(order);

    const draft = runs.find((text) => text.includes("gh release create"))!;
    expect(draft).toContain("--draft");
    expect(draft).toContain("node scripts/release-notes.mjs > release-notes.md");
    expect(draft).toContain("--notes-file release-notes.md");
    for (const file of ["main.js", "manifest.json", "styles.css", "THIRD_PARTY_LICENSES.txt"]) expect(draft).toMatch(new RegExp(`\\s${file.replace(".", "\\.")}(\\s|$)`));
  });

  it("drafts notes with the bundle size and the version's changelog section", () => {
    const result = run(process.execPath, [join(repoRoot, "scripts/release-notes.mjs")], repoRoot);
    const manifest = JSON.parse(readFileSync(join(repoRoot, "manifest.json"), "utf8")) as { version: string; minAppVersion: string };
    let bytes = 0;
    try {
      bytes = readFileSync(join(repoRoot, "main.js")).byteLength;
    } catch {
      // Not built here: the script must say so.
      expect(result.status).toBe(1);
      expect(result.stderr).toContain("main.js is not built; run `npm run build` first.");
      return;
    }
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`Vault Copilot ${manifest.version}, for Obsidian ${manifest.minAppVersion} or later`);
    expect(result.stdout).toContain(`main.js: ${bytes.toLocaleString("en-US")} bytes`);
    const changelog = readFileSync(join(repoRoot, "CHANGELOG.md"), "utf8");
    const section = changelog.slice(changelog.indexOf(`## [${manifest.version}]`)).split("\n").slice(1, 4).join("\n").trim();
    expect(result.stdout).toContain(section);
    expect(result.stdout).not.toContain("## [Unreleased]");
  });
});
