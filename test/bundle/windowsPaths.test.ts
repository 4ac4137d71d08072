/**
 * main.js is the same on every platform: the stand-ins of scripts/bundle/replaceUnusedModules.js
 * apply whatever separator the resolved paths use. On Windows esbuild hands plugins paths with
 * "\" (C:\…\node_modules\langsmith\index.mjs); here that is simulated by a plugin that serves every
 * dependency under such a path, and the bundle must come out byte for byte as the plain build.
 */
import { build, type Plugin } from "esbuild";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pluginBuildOptions } from "../../esbuild.options";
import { folderOf, moduleFilter, replacements } from "../../scripts/bundle/replaceUnusedModules";

const repoRoot = resolve(__dirname, "../..");

/** "/work/x/node_modules/a/b.js" as Windows writes it: "C:\\work\\x\\node_modules\\a\\b.js". */
const toWindows = (path: string) => `C:${path.replaceAll("/", "\\")}`;
/**
 * Back to the real path. On Linux esbuild takes "C:\\…" for a relative folder and puts the working
 * folder in front of a resolveDir given that way; on Windows it is absolute, as meant.
 */
const fromWindows = (path: string) => (path.includes("C:\\") ? path.slice(path.indexOf("C:\\") + 2).replaceAll("\\", "/") : path);

const SERVED = "served";
const LOADERS: Record<string, "js" | "json"> = { ".js": "js", ".mjs": "js", ".cjs": "js", ".json": "json" };

/**
 * Serves every file under node_modules from the namespace SERVED, under its path written with
 * "/" or the Windows way. Both builds go through this same plugin, so they differ only in the
 * separator the stand-ins' filters see; our own sources stay as they are.
 */
function serveDependencies(style: "posix" | "windows"): Plugin {
  const written = style === "windows" ? toWindows : (path: string) => path;
  return {
    name: `dependencies-with-${style}-paths`,
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, async (args) => {
        if ((args.pluginData as { plain?: boolean } | undefined)?.plain) return undefined;
        const result = await pluginBuild.resolve(args.path, {
          kind: args.kind,
          resolveDir: fromWindows(args.resolveDir),
          importer: fromWindows(args.importer),
          pluginData: { plain: true },
        });
        if (result.errors.length > 0) return { errors: result.errors };
        if (result.external || result.namespace !== "file" || !result.path.includes("/node_modules/")) return result;
        return { path: written(result.path), namespace: SERVED, sideEffects: result.sideEffects };
      });
      pluginBuild.onLoad({ filter: /.*/, namespace: SERVED }, (args) => {
        const path = fromWindows(args.path);
        const extension = /\.[^./]+$/.exec(path)?.[0] ?? ".js";
        return { contents: readFileSync(path), loader: LOADERS[extension] ?? "js", resolveDir: folderOf(args.path) };
      });
    },
  };
}

async function mainJs(style: "posix" | "windows"): Promise<{ bytes: Buffer; inputs: string[] }> {
  const options = pluginBuildOptions(true);
  const result = await build({
    ...options,
    // The stand-ins first, as in the build: their onLoad answers before the served files' one.
    plugins: [...(options.plugins ?? []), serveDependencies(style)],
    absWorkingDir: repoRoot,
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  return { bytes: Buffer.from(result.outputFiles.find((file) => file.path.endsWith("main.js"))!.contents), inputs: Object.keys(result.metafile.inputs) };
}

describe("the stand-ins of main.js on Windows paths", () => {
  it.each(replacements.map((replacement) => [replacement.name, replacement.module] as const))("%s: the filter matches its file with either separator", (_name, module) => {
    const filter = moduleFilter(module);
    const windowsPath = `C:\\Users\\Ана\\项目\\node_modules\\${module.replaceAll("/", "\\")}`;
    expect(replacements.find((replacement) => replacement.module === module)!.path.test(windowsPath)).toBe(true);
    expect(filter.test(windowsPath)).toBe(true);
    expect(filter.test(`/home/ана/项目/node_modules/${module}`)).toBe(true);
    // Only that file: not a longer name ending the same way, nor the same name in another package.
    expect(filter.test(`C:\\p\\node_modules\\x${module.replaceAll("/", "\\")}`)).toBe(false);
    expect(filter.test(`/p/node_modules/${module}.map`)).toBe(false);
  });

  it("finds the folder of a path written with either separator", () => {
    expect(folderOf("C:\\Users\\Ана\\node_modules\\zod\\v4\\locales\\index.js")).toBe("C:\\Users\\Ана\\node_modules\\zod\\v4\\locales");
    expect(folderOf("/home/ана/node_modules/zod/v4/locales/index.js")).toBe("/home/ана/node_modules/zod/v4/locales");
  });

  it("builds main.js byte for byte the same when every dependency's path is written the Windows way", async () => {
    const posix = await mainJs("posix");
    const windows = await mainJs("windows");
    // The simulation took effect: every dependency was read through a path written that way.
    expect(windows.inputs.filter((path) => path.includes("node_modules/"))).toEqual([]);
    expect(windows.inputs.filter((path) => path.startsWith(`${SERVED}:C:\\`)).length).toBeGreaterThan(100);
    expect(posix.inputs.filter((path) => path.startsWith(`${SERVED}:/`)).length).toBeGreaterThan(100);
    // The stand-ins applied on both: none of the locales they cut was read.
    for (const build of [posix, windows]) expect(build.inputs.filter((path) => /zod.v4.locales.(?!en\.js|index\.js)/.test(path))).toEqual([]);
    expect(windows.bytes.byteLength).toBe(posix.bytes.byteLength);
    expect(windows.bytes.equals(posix.bytes)).toBe(true);
  }, 120_000);
});
