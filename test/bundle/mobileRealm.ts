/**
 * A built main.js loaded as mobile Obsidian loads it: in a realm with a web page's globals,
 * `obsidian` (the test double, bundled into the same realm) and the CodeMirror packages its editor
 * is made of, nothing else. Any other `require` fails, naming the module.
 */
import { build } from "esbuild";
import { JSDOM } from "jsdom";
import { join, resolve } from "node:path";
import vm from "node:vm";
import type * as Double from "../obsidian/obsidian";

const repoRoot = resolve(__dirname, "../..");

/** Web globals jsdom lacks but every Obsidian platform has (Electron and the mobile web views). */
const WEB_GLOBALS_JSDOM_LACKS = [
  "fetch", "Request", "Response", "Headers", "TextEncoder", "TextDecoder", "ReadableStream",
  "WritableStream", "TransformStream", "TextDecoderStream", "TextEncoderStream", "structuredClone",
] as const;

export interface LoadedBundle {
  realm: vm.Context & Window;
  obsidian: typeof Double;
  pluginClass: new (app: Double.App, manifest: unknown) => Double.Plugin;
  /** Every module main.js asked for, in order. */
  requested: string[];
  close(): void;
}

/** A CommonJS module evaluated in `realm`, with `requireModule` as its only way out. */
function evaluateModule(realm: vm.Context, code: string, filename: string, requireModule: (name: string) => unknown): Record<string, unknown> {
  const module = vm.runInContext("({ exports: {} })", realm) as { exports: Record<string, unknown> };
  const wrapper = vm.runInContext(`(function (module, exports, require) {${code}\n})`, realm, { filename }) as (
    module: unknown,
    exports: unknown,
    require: (name: string) => unknown,
  ) => void;
  wrapper(module, module.exports, requireModule);
  return module.exports;
}

/**
 * Evaluates `mainJs` (main.js's text) in a new mobile-like realm. Obsidian's language there is the
 * realm's `localStorage` "language" (the double's `getLanguage()`), English until a test sets it.
 */
export async function loadMainJs(mainJs: string): Promise<LoadedBundle> {
  const bundleOf = async (entry: string, external: string[]) =>
    (await build({ entryPoints: [entry], bundle: true, format: "cjs", platform: "browser", target: "es2022", write: false, logLevel: "silent", external, absWorkingDir: repoRoot })).outputFiles[0]!.text;
  // The editor's packages, one copy for the double and the plugin alike, as Obsidian gives them.
  const editorPackages = ["@codemirror/state", "@codemirror/view"];
  const [stateCode, viewCode, doubleCode] = await Promise.all([
    bundleOf(require.resolve("@codemirror/state"), []),
    bundleOf(require.resolve("@codemirror/view"), ["@codemirror/state"]),
    bundleOf(join(repoRoot, "test/obsidian/obsidian.ts"), editorPackages),
  ]);

  const dom = new JSDOM("<!doctype html><html><body></body></html>", { runScripts: "outside-only", pretendToBeVisual: true, url: "http://localhost/" });
  const window = dom.window as unknown as Record<string, unknown>;
  for (const name of WEB_GLOBALS_JSDOM_LACKS) window[name] ??= (globalThis as Record<string, unknown>)[name];
  const realm = dom.getInternalVMContext() as vm.Context & Window;

  const noModules = (name: string): never => {
    throw new Error(`CodeMirror's state package needs no modules, yet it asked for "${name}"`);
  };
  const state = evaluateModule(realm, stateCode, "codemirror-state.js", noModules);
  const view = evaluateModule(realm, viewCode, "codemirror-view.js", (name) => (name === "@codemirror/state" ? state : noModules(name)));
  const editorModules: Record<string, unknown> = { "@codemirror/state": state, "@codemirror/view": view };
  const obsidian = evaluateModule(realm, doubleCode, "obsidian-double.js", (name) => editorModules[name] ?? noModules(name)) as unknown as typeof Double;
  const requested: string[] = [];
  const exports = evaluateModule(realm, mainJs, "main.js", (name) => {
    requested.push(name);
    if (name === "obsidian") return obsidian;
    if (editorModules[name]) return editorModules[name];
    throw new Error(`main.js asked for "${name}", which mobile Obsidian does not have`);
  });
  return {
    realm,
    obsidian,
    pluginClass: exports.default as LoadedBundle["pluginClass"],
    requested,
    close: () => dom.window.close(),
  };
}
