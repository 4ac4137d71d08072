// An esbuild plugin for main.js: each language's table (src/i18n/<code>.ts, typed `Translation`)
// goes into the bundle as its messages in the order of English's keys, unpacked when main.js loads
// (src/i18n/packedTranslation.ts holds both halves; its test round-trips every table). A key name
// is then in main.js once, in English's table, instead of ten times. The sources stay as people
// write them: only the build packs. designdocs/ARCHITECTURE.md ("What main.js carries") has the figures.
const { readFileSync } = require("node:fs");
const { join } = require("node:path");
const { transformSync } = require("esbuild");

/** A table's source: `export const <name>: Translation = {`. Any other module of the folder loads as it is. */
const TABLE_DECLARATION = /^export const (\w+): Translation = \{/m;
/** The folder's files, whichever separator the platform's paths use. */
const I18N_FILE = /[\\/]src[\\/]i18n[\\/][^\\/]+\.ts$/;

/**
 * The exports of a module of src/i18n, compiled from its TypeScript and run here. Only type
 * imports are allowed (they vanish): a table that imports a value would need that value at build time.
 */
function evaluateModule(path) {
  const { code } = transformSync(readFileSync(path, "utf8"), { loader: "ts", format: "cjs", sourcefile: path });
  const module = { exports: {} };
  const refuse = (name) => {
    throw new Error(`${path} imports "${name}": a language table and what packs it may import types only`);
  };
  new Function("module", "exports", "require", code)(module, module.exports, refuse);
  return module.exports;
}

/** The module main.js gets in place of the table `name` from `path`, with English's table and the packer from `folder`. */
function packedModule(path, name, folder) {
  const exported = evaluateModule(path);
  const others = Object.keys(exported).filter((key) => key !== name);
  if (others.length > 0) throw new Error(`${path} exports ${others.join(", ")} beside its table ${name}; packing would drop them`);
  const { en } = evaluateModule(join(folder, "en.ts"));
  const { packTranslation } = evaluateModule(join(folder, "packedTranslation.ts"));
  const packed = packTranslation(en, exported[name]);
  return [
    'import { en } from "./en";',
    'import { unpackTranslation } from "./packedTranslation";',
    `export const ${name} = /* @__PURE__ */ unpackTranslation(en, ${JSON.stringify(packed)});`,
    "",
  ].join("\n");
}

/** The esbuild plugin: packs every table of src/i18n but English's. */
function packTranslations() {
  return {
    name: "pack-translations",
    setup(build) {
      build.onLoad({ filter: I18N_FILE }, (args) => {
        const declaration = TABLE_DECLARATION.exec(readFileSync(args.path, "utf8"));
        if (!declaration) return undefined;
        const folder = args.path.slice(0, Math.max(args.path.lastIndexOf("/"), args.path.lastIndexOf("\\")));
        return {
          contents: packedModule(args.path, declaration[1], folder),
          loader: "js",
          resolveDir: folder,
          // Watch mode builds again when English's keys or the packer change, not only the table.
          watchFiles: [args.path, join(folder, "en.ts"), join(folder, "packedTranslation.ts")],
        };
      });
    },
  };
}

module.exports = { packTranslations, packedModule };
