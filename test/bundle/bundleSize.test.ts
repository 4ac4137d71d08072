/**
 * The budget: main.js, built with the release options (minified, runners wired in), stays
 * within 2.25 MiB (esbuild.options.js says why). On failure the message lists the bytes by package, as `npm run bench -- bundle`
 * does. The cuts that keep it there are in scripts/bundle/replaceUnusedModules.js.
 */
import { build, type Metafile } from "esbuild";
import { resolve } from "node:path";
import { MAIN_JS_BUDGET_BYTES, pluginBuildOptions } from "../../esbuild.options";
import { bytesByPackage } from "../../scripts/bundle/bytesByPackage";

const repoRoot = resolve(__dirname, "../..");

describe("main.js size (release build)", () => {
  let size = 0;
  let metafile: Metafile;
  let table = "";

  beforeAll(async () => {
    const result = await build({ ...pluginBuildOptions(true), absWorkingDir: repoRoot, write: false, metafile: true, logLevel: "silent" });
    size = result.outputFiles.find((file) => file.path.endsWith("main.js"))!.contents.byteLength;
    metafile = result.metafile;
    table = bytesByPackage(metafile).map((row) => `${row.name}: ${row.bytes}`).join("\n");
  });

  it("is at most 2.25 MiB (2,359,296 bytes)", () => {
    if (size > MAIN_JS_BUDGET_BYTES) {
      throw new Error(`main.js is ${size} bytes, over the budget of ${MAIN_JS_BUDGET_BYTES} by ${size - MAIN_JS_BUDGET_BYTES}. By package:\n${table}`);
    }
    expect(size).toBeLessThanOrEqual(MAIN_JS_BUDGET_BYTES);
  });

  it("carries one copy of zod and none of what the stand-ins replace", () => {
    const names = bytesByPackage(metafile).map((row) => row.name);
    expect(names.filter((name) => name === "zod" || name.endsWith("> zod"))).toEqual(["zod"]);
    expect(names.filter((name) => ["ajv", "ajv-formats", "fast-uri"].includes(name))).toEqual([]);
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.filter((path) => /zod\/v4\/locales\/(?!en\.js|index\.js)/.test(path))).toEqual([]);
    expect(inputs.filter((path) => /langsmith\/(resources\/|lib\/experimental\/)/.test(path))).toEqual([]);
  });
});
