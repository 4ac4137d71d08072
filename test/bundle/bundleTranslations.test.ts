/**
 * The language tables as main.js carries them: packed by the build (scripts/bundle/packTranslations.js,
 * each table as its messages in English's key order), they must read exactly as the sources do.
 * main.js is built with the release options, in memory, as `npm run build` writes it.
 */
import { build } from "esbuild";
import { resolve } from "node:path";
import vm from "node:vm";
import { pluginBuildOptions } from "../../esbuild.options";
import { en } from "../../src/i18n/en";
import { LANGUAGES, type Language } from "../../src/i18n/languages";
import type { MessageKey, MessageValues } from "../../src/i18n/messages";
import { translate } from "../../src/i18n/translate";
import { loadMainJs, type LoadedBundle } from "./mobileRealm";

const repoRoot = resolve(__dirname, "../..");

/** The plugin's commands (their ids without the plugin's prefix) and the keys of their names. */
const COMMAND_KEYS: Readonly<Record<string, MessageKey>> = {
  "open-chat": "command.openChat",
  "add-selection-to-chat": "command.addSelection",
  "open-related-notes": "command.openRelated",
  "show-last-request": "command.showLastRequest",
  "rebuild-search-index": "command.rebuildIndex",
  "undo-last-agent-edit": "command.undoLastEdit",
  "switch-project": "command.switchProject",
  "edit-selection": "command.editSelection",
  "create-starter-prompts": "command.createStarterPrompts",
  "quick-question": "command.quickQuestion",
};

/** Values for every placeholder a message may have, in scripts of their own, so a filled message is compared too. */
const VALUES: MessageValues = { count: 3, path: "庭院/حديقة/กุหลาบ 🌹.md", name: "Résumé", title: "Черновик", tool: "readNote", reason: "нет", error: "错误" };

const releaseBuild = (entry: Parameters<typeof build>[0]) => build({ ...pluginBuildOptions(true), absWorkingDir: repoRoot, write: false, logLevel: "silent", ...entry });

describe("the language tables in main.js (release build)", () => {
  let mainJs: string;
  let loaded: LoadedBundle;
  const manifest = { id: "vault-copilot", name: "Vault Copilot", author: "", version: "0.1.0", minAppVersion: "1.11.4", description: "", dir: ".obsidian/plugins/vault-copilot" };

  beforeAll(async () => {
    mainJs = (await releaseBuild({})).outputFiles!.find((file) => file.path.endsWith("main.js"))!.text;
    loaded = await loadMainJs(mainJs);
  });

  afterAll(() => loaded?.close());

  it("writes each key name once, in English's table, and in no other table", () => {
    const written = Object.keys(en).filter((key) => mainJs.split(new RegExp(`[{,]${JSON.stringify(key).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:`)).length - 1 !== 1);
    expect(written).toEqual([]);
  });

  it.each(LANGUAGES.map((language) => [language.code, language] as const))("%s: main.js names its commands and ribbon icon as the source table does", async (code, language) => {
    const realmStorage = vm.runInContext("window.localStorage", loaded.realm) as Storage;
    realmStorage.setItem("language", code);
    const app = new loaded.obsidian.App();
    const plugin = new loaded.pluginClass(app, manifest);
    await plugin.enable();
    try {
      const shown = Object.fromEntries(Object.keys(COMMAND_KEYS).map((id) => [id, plugin.registered.commands.get(`vault-copilot:${id}`)?.name]));
      const source = Object.fromEntries(Object.entries(COMMAND_KEYS).map(([id, key]) => [id, translate(language, key)]));
      expect(shown).toEqual(source);
      expect(plugin.registered.ribbonIcons.map((icon) => icon.title)).toEqual([translate(language, "command.openChatRibbon")]);
    } finally {
      plugin.unload();
      realmStorage.removeItem("language");
    }
  });

  it("reads every message of every language as the source tables do, through the same build", async () => {
    // The i18n modules alone, through main.js's own options and plugins (the packer among them).
    const bundled = await releaseBuild({
      entryPoints: undefined,
      outfile: undefined,
      outdir: undefined,
      stdin: { contents: 'export { LANGUAGES } from "./src/i18n/languages";\nexport { translate } from "./src/i18n/translate";\n', resolveDir: repoRoot, loader: "ts" },
    });
    const module = { exports: {} as { LANGUAGES: readonly Language[]; translate: typeof translate } };
    const evaluate = vm.runInThisContext(`(function (module, exports, require) {${bundled.outputFiles![0]!.text}\n})`) as (module: unknown, exports: unknown, require: (name: string) => never) => void;
    evaluate(module, module.exports, (name) => {
      throw new Error(`The i18n modules asked for "${name}"`);
    });
    const built = module.exports;
    expect(built.LANGUAGES.map((language) => language.code)).toEqual(LANGUAGES.map((language) => language.code));
    const differing = LANGUAGES.flatMap((language, index) =>
      (Object.keys(en) as MessageKey[])
        .filter((key) => built.translate(built.LANGUAGES[index]!, key, VALUES) !== translate(language, key, VALUES))
        .map((key) => `${language.code} ${key}`),
    );
    expect(differing).toEqual([]);
  });
});
