/**
 * The dependency rules of designdocs/ARCHITECTURE.md, checked on the source: only the Obsidian
 * adapters import the `obsidian` runtime, and the core never imports the UI or the wiring.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(__dirname, "../..");
const sources = (folder: string): string[] =>
  readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });

/** Module specifiers of the value (not type-only) imports of a file. */
function valueImports(path: string): string[] {
  const text = readFileSync(join(root, path), "utf8");
  const specifiers: string[] = [];
  for (const match of text.matchAll(/^import\s+(type\s+)?([^;]*?)\s+from\s+"([^"]+)";/gms)) {
    const [, typeOnly, bindings = "", specifier = ""] = match;
    if (typeOnly) continue;
    // `import { type A, type B } from "x"` is erased as well.
    const names = /^\{([^}]*)\}$/.exec(bindings.trim())?.[1];
    if (names !== undefined && names.split(",").every((name) => name.trim() === "" || name.trim().startsWith("type "))) continue;
    specifiers.push(specifier);
  }
  for (const match of text.matchAll(/import\(\s*"([^"]+)"\s*\)/g)) specifiers.push(match[1] ?? "");
  return specifiers;
}

const OBSIDIAN_ADAPTERS = [
  /^src\/main\.ts$/,
  /^src\/components\//,
  /^src\/settings\/(SettingsTab|settingRows|settingsStore|obsidianSecretStore)\.ts$/,
  /^src\/vault\/ObsidianVault\.ts$/,
  /^src\/net\/obsidianFetch\.ts$/,
];

describe("dependency rules", () => {
  const files = sources("src");

  it("finds the sources", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain("src/main.ts");
  });

  it("imports the obsidian runtime only in the Obsidian adapters", () => {
    const offenders = files.filter((file) => valueImports(file).includes("obsidian") && !OBSIDIAN_ADAPTERS.some((rule) => rule.test(file)));
    expect(offenders).toEqual([]);
  });

  it("keeps the core free of the UI and the wiring", () => {
    const core = files.filter((file) => /^src\/(tools|search|context|LLMProviders|mcp|vault|ports|chat|history|prompts|time)\//.test(file));
    const offenders = core.flatMap((file) =>
      valueImports(file)
        .filter((specifier) => specifier.startsWith("."))
        .map((specifier) => relative(root, join(root, file, "..", specifier)).split("\\").join("/"))
        .filter((target) => /^src\/(components|main|cli)\b/.test(target) || /^src\/settings\/(SettingsTab|settingRows|settingsSections|settingsStore|mcpSettingsSection)\b/.test(target))
        .map((target) => `${file} -> ${target}`),
    );
    expect(offenders).toEqual([]);
  });

  it("keeps the note index free of the prompt layer (both meet at ports/NoteSearcher)", () => {
    const offenders = files
      .filter((file) => file.startsWith("src/search/"))
      .flatMap((file) => [...readFileSync(join(root, file), "utf8").matchAll(/from "(\.\.\/context\/[^"]+)"/g)].map((match) => `${file} -> ${match[1]}`));
    expect(offenders).toEqual([]);
  });

  it("keeps search a service, not a caller of the model: src/search imports nothing from src/LLMProviders", () => {
    // Type imports too: the embeddings client and the error model it shares with the providers live in src/net.
    const offenders = files
      .filter((file) => file.startsWith("src/search/"))
      .flatMap((file) =>
        [...readFileSync(join(root, file), "utf8").matchAll(/(?:from|import)\s*\(?\s*"(\.[^"]+)"/g)]
          .map((match) => relative(root, join(root, file, "..", match[1] ?? "")).split("\\").join("/"))
          .filter((target) => target.startsWith("src/LLMProviders/"))
          .map((target) => `${file} -> ${target}`),
      );
    expect(offenders).toEqual([]);
  });

  it("reaches Node-only modules from the plugin only through the lazy stdio import", () => {
    const nodeOnly = /(^|\/)(FsVault|fsDataStore|atomicWrite|fileLock)$|\/cli\/|\/mcp\/node\//;
    const plugin = files.filter((file) => !file.startsWith("src/cli/") && !file.startsWith("src/mcp/node/") && !/\/(FsVault|fsDataStore|atomicWrite|fileLock)\.ts$/.test(file));
    const offenders = plugin.flatMap((file) => {
      const text = readFileSync(join(root, file), "utf8");
      return valueImports(file)
        .filter((specifier) => specifier.startsWith(".") && nodeOnly.test(specifier))
        .filter((specifier) => !(specifier === "./node/stdioTransport" && text.includes(`await import("${specifier}")`)))
        .map((specifier) => `${file} -> ${specifier}`);
    });
    expect(offenders).toEqual([]);
  });
});
