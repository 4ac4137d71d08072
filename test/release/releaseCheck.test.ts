/**
 * `npm run release:check` (scripts/release-check.mjs): passes on the repository as it is, and fails,
 * naming each problem, when the versions disagree, the manifest breaks the community directory's
 * rules, minAppVersion is not the real minimum of the APIs used, or mobile would load Node code.
 * The script runs for real over temporary copies of package.json, manifest.json, versions.json and
 * CHANGELOG.md; the rules are also checked one by one.
 */
import type { Metafile } from "esbuild";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { obsidianApisUsed } from "../../scripts/release/obsidianApiMinimum";
import { checkDesktopOnly, checkManifest, checkMinAppVersion, checkVersions } from "../../scripts/release/releaseChecks";
import { copyReleaseFiles, repoRoot, run, type ReleaseCopy } from "./releaseFiles";

const releaseFiles = ["package.json", "manifest.json", "versions.json", "CHANGELOG.md"];
const releaseCheck = (dir?: string) => run(process.execPath, [join(repoRoot, "scripts/release-check.mjs"), ...(dir ? ["--dir", dir] : [])], repoRoot);

describe("release:check over the files", () => {
  let copy: ReleaseCopy;
  beforeEach(() => {
    copy = copyReleaseFiles(releaseFiles);
  });
  afterEach(() => copy.remove());

  it("passes on the repository, naming the APIs that set minAppVersion", () => {
    const result = releaseCheck();
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("is ready to release");
    expect(result.stdout).toMatch(/minAppVersion 1\.11\.4: the newest APIs the code uses are .*SecretStorage\.getSecret/);
  });

  it("fails on a version mismatch, a minAppVersion older than the code needs, an emoji in the description, no versions.json entry and no changelog section, naming each", () => {
    const version = String(copy.readJson("package.json").version);
    const manifest = copy.readJson("manifest.json");
    copy.writeJson("manifest.json", { ...manifest, version: "0.1.1", minAppVersion: "1.10.0", description: "Chat with your notes 🙂." });
    copy.writeJson("versions.json", { "0.0.1": "1.10.0" });
    writeFileSync(join(copy.root, "CHANGELOG.md"), "# Changelog\n\n## [Unreleased]\n");
    const result = releaseCheck(copy.root);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`manifest.json's version "0.1.1" differs from package.json's "${version}"`);
    expect(result.stdout).toContain(`versions.json has no entry for ${version}`);
    expect(result.stdout).toContain(`CHANGELOG.md has no "## [${version}]" section`);
    expect(result.stdout).toMatch(/minAppVersion is 1\.10\.0, but the oldest Obsidian with every API the code uses is 1\.11\.4 \(.*SecretStorage\.getSecret.*\): set minAppVersion/);
    expect(result.stdout).toContain("(no emoji): remove 🙂");
    expect(result.stdout).toMatch(/^release:check: 5 problems$/m);
  });

  it("says which file is not JSON", () => {
    writeFileSync(join(copy.root, "versions.json"), '{ "0.1.0": "1.11.4", }');
    const result = releaseCheck(copy.root);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/versions\.json is not valid JSON/);
  });
});

describe("the release rules", () => {
  const manifest = {
    id: "vault-copilot",
    name: "Vault Copilot",
    version: "0.1.0",
    minAppVersion: "1.11.4",
    description: "Chat with a model in the sidebar.",
    author: "Vault Copilot contributors",
    isDesktopOnly: false,
  };

  it("accept the versions when all three agree", () => {
    expect(checkVersions({ packageJson: { version: "0.1.0" }, manifest, versions: { "0.0.9": "1.10.0", "0.1.0": "1.11.4" }, changelog: "## [0.1.0] - 2026-12-04" })).toEqual([]);
    expect(checkVersions({ packageJson: { version: "0.1.0" }, manifest, versions: { "0.1.0": "1.10.0" } })).toEqual([
      "versions.json maps 0.1.0 to 1.10.0, but manifest.json's minAppVersion is 1.11.4: make them the same.",
    ]);
    expect(checkVersions({ packageJson: { version: "v0.1.0" }, manifest: { ...manifest, version: "v0.1.0" }, versions: { "v0.1.0": "1.11.4" } })[0]).toContain('package.json\'s version "v0.1.0" is not x.y.z');
  });

  it("take a description of 10 to 250 plain characters ending with a period", () => {
    expect(checkManifest(manifest)).toEqual([]);
    const longest = `${"A".padEnd(249, "a")}.`;
    expect(checkManifest({ ...manifest, description: longest })).toEqual([]);
    expect(checkManifest({ ...manifest, description: `A${longest}` })).toEqual(["manifest.json's description is 251 characters; the directory takes 10 to 250."]);
    expect(checkManifest({ ...manifest, description: "Chat with a model in the sidebar" })).toEqual(["manifest.json's description must end with a period."]);
  });

  it.each([
    ["Cyrillic", "Общайтесь с заметками.", "О б щ а й т е с ь з м к и"],
    ["Han", "Chat 与笔记对话.", "与 笔 记 对 话"],
    ["Arabic", "Chat مع ملاحظاتك.", "م ع ل ا ح ظ ت ك"],
    ["Thai", "Chat กับโน้ตของคุณ.", "ก ั บ โ น ้ ต ข อ ง ค ุ ณ"],
    ["emoji", "Chat with notes 🗒️ fast.", "🗒 ️"],
    ["NFD accents", "Chat with your re\u0301sume\u0301 notes.", "\u0301"],
  ])("refuse a description with %s, naming what to remove", (_script, description, odd) => {
    expect(checkManifest({ ...manifest, description })).toEqual([
      ...(/^[A-Z]/.test(description) ? [] : ["manifest.json's description must start with a capital letter."]),
      `manifest.json's description may hold only letters, digits and plain punctuation (no emoji): remove ${odd}.`,
    ]);
  });

  it("refuse 'Obsidian' and 'plugin' in the id, name and description, unknown keys and an empty fundingUrl", () => {
    expect(checkManifest({ ...manifest, id: "obsidian-copilot", name: "Copilot Plugin", description: "An Obsidian copilot for notes.", fundingUrl: {}, helpUrl: "x" })).toEqual([
      'manifest.json\'s "helpUrl" is not a key the directory accepts (it takes id, name, version, minAppVersion, description, author, isDesktopOnly, authorUrl, fundingUrl).',
      'manifest.json\'s id "obsidian-copilot" must not contain "obsidian" or "plugin".',
      'manifest.json\'s name "Copilot Plugin" must not contain "Obsidian" or "Plugin".',
      'manifest.json\'s description must not say "Obsidian" or "plugin": say what it does.',
      "manifest.json's fundingUrl must be a link (or named links) where people can fund the work; leave the key out when there is none.",
    ]);
    expect(checkManifest({ ...manifest, fundingUrl: { "Buy me a coffee": "https://example.org/fund" } })).toEqual([]);
    const { author: _author, ...withoutAuthor } = manifest;
    expect(checkManifest({ ...withoutAuthor, isDesktopOnly: "false" })).toEqual([
      'manifest.json has no "author" (string).',
      'manifest.json\'s "isDesktopOnly" must be a boolean, not "false".',
    ]);
  });

  it("want minAppVersion equal to the newest API used: not older, not newer", () => {
    const apis = [
      { name: "SecretStorage.getSecret", since: "1.11.4", file: "a.ts" },
      { name: "App.secretStorage", since: "1.11.4", file: "b.ts" },
      { name: "Vault.process", since: "1.1.0", file: "c.ts" },
    ];
    expect(checkMinAppVersion(manifest, apis)).toEqual([]);
    expect(checkMinAppVersion({ ...manifest, minAppVersion: "1.9.12" }, apis)[0]).toContain("is 1.9.12, but the oldest Obsidian with every API the code uses is 1.11.4 (SecretStorage.getSecret, App.secretStorage)");
    expect(checkMinAppVersion({ ...manifest, minAppVersion: "1.12.0" }, apis)[0]).toContain("set minAppVersion (and versions.json's entry) to 1.11.4");
  });

  it("want isDesktopOnly false, with Node modules reached from main.ts only through a dynamic import", () => {
    const graph = (kind: "require-call" | "dynamic-import"): Metafile => ({
      inputs: {
        "src/main.ts": { bytes: 1, imports: [{ path: "src/mcp/hub.ts", kind: "import-statement" }, { path: "obsidian", kind: "require-call", external: true }] },
        "src/mcp/hub.ts": { bytes: 1, imports: [{ path: "src/mcp/node/stdio.ts", kind }] },
        "src/mcp/node/stdio.ts": { bytes: 1, imports: [{ path: "node:child_process", kind: "import-statement", external: true }] },
      },
      outputs: {},
    });
    expect(checkDesktopOnly(manifest, graph("dynamic-import"))).toEqual([]);
    expect(checkDesktopOnly(manifest, graph("require-call"))).toEqual([
      "manifest.json says isDesktopOnly false, but main.js loads Node modules that mobile lacks: src/mcp/node/stdio.ts imports node:child_process. Load that code with a dynamic import behind Platform.isDesktop.",
    ]);
    expect(checkDesktopOnly({ ...manifest, isDesktopOnly: true }, graph("dynamic-import"))[0]).toContain("isDesktopOnly must be false");
  });
});

describe("the Obsidian APIs a file uses", () => {
  let root = "";
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "vault-copilot-apis-"));
    symlinkSync(join(repoRoot, "node_modules"), join(root, "node_modules"));
    writeFileSync(join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, module: "ESNext", moduleResolution: "Bundler", target: "ES2022", lib: ["DOM", "ES2023"], skipLibCheck: true } }));
    mkdirSync(join(root, "src"));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("count values (calls, properties, new, extends), not types, each with its @since", () => {
    const file = join(root, "src/settingsView.ts");
    writeFileSync(
      file,
      [
        'import { ConfirmationButton, PluginSettingTab, type App, type SettingDefinitionItem } from "obsidian";',
        "export function read(app: App): string | null { return app.secretStorage.getSecret(\"ключ-鍵\"); }",
        "export async function save(app: App, path: string): Promise<void> { const file = app.vault.getFileByPath(path); if (file) await app.vault.process(file, (text) => text); }",
        "export function confirm(element: HTMLElement): ConfirmationButton { return new ConfirmationButton(element); }",
        "export abstract class Tab extends PluginSettingTab { definitions: SettingDefinitionItem[] = []; }",
      ].join("\n"),
    );
    const apis = obsidianApisUsed([file], join(root, "tsconfig.json"));
    const names = apis.map((api) => `${api.name} ${api.since}`);
    expect(names[0]).toBe("ConfirmationButton 1.13.0");
    expect(names).toEqual(expect.arrayContaining(["App.secretStorage 1.11.4", "SecretStorage.getSecret 1.11.4", "Vault.getFileByPath 1.5.7", "Vault.process 1.1.0"]));
    // SettingDefinitionItem (1.13.0) is only a type here: erased, it asks nothing of the app.
    expect(names.filter((name) => name.startsWith("SettingDefinitionItem"))).toEqual([]);
  });
});
