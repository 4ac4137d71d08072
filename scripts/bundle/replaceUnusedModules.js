// An esbuild plugin for main.js: swaps modules of our dependencies that the plugin never runs for
// small stand-ins, keeping the modules that import them unchanged. Each entry says what it cuts and
// why it is safe; designdocs/ARCHITECTURE.md ("What main.js carries") gives the figures, and
// test/bundle/replacedModules.test.ts checks that each stand-in still does what its importers need.
// Only main.js uses it: the CLI (Node, no size budget) bundles the originals.
const { readFileSync } = require("node:fs");
const { join } = require("node:path");

/**
 * The esbuild filter for a module given by its path inside node_modules, written with "/": it
 * matches that file resolved on any platform, where esbuild's paths use the platform's separator
 * ("\\" on Windows, so a filter written for "/" alone would never apply there).
 */
function moduleFilter(modulePath) {
  const segments = modulePath.split("/").map((segment) => segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`[\\\\/]${segments.join("[\\\\/]")}$`);
}

/** The folder of a resolved file, whichever separator its path uses. */
function folderOf(filePath) {
  return filePath.slice(0, Math.max(filePath.lastIndexOf("/"), filePath.lastIndexOf("\\")));
}

/** `module` names the file (see moduleFilter); `contents` replaces it, resolved beside it. */
const replacementModules = [
  {
    // zod registers English messages itself (`config(en())`); the other 47 locales only come in
    // because `z.locales` re-exports them all (about 260 KB). Nothing calls z.config with another.
    name: "zod locales other than English",
    module: "zod/v4/locales/index.js",
    contents: () => 'export { default as en } from "./en.js";\n',
  },
  {
    // The MCP client validates a tool's structured output against its output schema. Its default
    // validator is Ajv (plus ajv-formats and fast-uri, about 130 KB, and it compiles schemas with
    // `new Function`); the SDK ships an interchangeable one on @cfworker/json-schema, which LangChain
    // already brings into main.js. Same interface, no code generation.
    name: "Ajv in the MCP client",
    module: "@modelcontextprotocol/sdk/dist/esm/validation/ajv-provider.js",
    contents: () => 'export { CfWorkerJsonSchemaValidator as AjvJsonSchemaValidator } from "./cfworker-provider.js";\n',
  },
  {
    // LangSmith's tracing client: see langsmithClientStub.mjs for why it never runs.
    name: "LangSmith tracing client",
    module: "langsmith/lib/client.mjs",
    contents: () => readFileSync(join(__dirname, "langsmithClientStub.mjs"), "utf8"),
  },
  {
    // LangChain imports `RunTree` and `Client` from langsmith's root, which also re-exports the
    // generated REST client for LangSmith's whole API (datasets, sandboxes, fleet, ...: about 60 KB).
    // The root keeps only the hand-written tracing surface; a name missing from it fails the build.
    name: "LangSmith REST API client",
    module: "langsmith/index.mjs",
    contents: () => 'export * from "./lib/index.mjs";\n',
  },
  {
    // LangChain counts tokens with tiktoken only in getNumTokens / calculateMaxTokens, which the
    // plugin never calls (usage comes from the servers), and the encodings it would use are
    // fetched from tiktoken.pages.dev at that moment: a request the plugin must not make. Both
    // callers catch the failure and count characters / 4 instead.
    name: "tiktoken token counting",
    module: "@langchain/core/dist/utils/tiktoken.js",
    contents: () =>
      [
        'const unavailable = () => Promise.reject(new Error("Token counting with tiktoken is not part of Vault Copilot."));',
        "export const encodingForModel = unavailable;",
        "export const getEncoding = unavailable;",
        "export const tiktoken_exports = { encodingForModel, getEncoding };",
        "",
      ].join("\n"),
  },
  {
    // ChatOpenAI's `profile` (a table of OpenAI models' context sizes and features, about 13 KB)
    // is read only by LangChain's agent middleware, which the plugin does not use: an empty table
    // makes `profile` an empty object, as for a model the table does not know.
    name: "OpenAI model profiles",
    module: "@langchain/openai/dist/chat_models/profiles.js",
    contents: () => "export default {};\n",
  },
  ...unusedOpenAIResources(),
];

/**
 * The OpenAI client builds every resource of OpenAI's API on construction (assistants, files,
 * fine-tuning, vector stores, audio, images, realtime, ...: about 60 KB minified), while
 * ChatOpenAI calls only `chat.completions`, `responses` (models that answer there) and, when a
 * moderation option is set, `moderations`. The others become empty resources: the client still
 * builds, and a call to one fails at once ("... is not a function") rather than sending anything.
 */
function unusedOpenAIResources() {
  const unused = {
    "admin/admin.mjs": "Admin",
    "audio/audio.mjs": "Audio",
    "batches.mjs": "Batches",
    "beta/beta.mjs": "Beta",
    "containers/containers.mjs": "Containers",
    "conversations/conversations.mjs": "Conversations",
    "evals/evals.mjs": "Evals",
    "files.mjs": "Files",
    "fine-tuning/fine-tuning.mjs": "FineTuning",
    "graders/graders.mjs": "Graders",
    "images.mjs": "Images",
    "realtime/realtime.mjs": "Realtime",
    "skills/skills.mjs": "Skills",
    "uploads/uploads.mjs": "Uploads",
    "vector-stores/vector-stores.mjs": "VectorStores",
    "videos.mjs": "Videos",
    "webhooks/webhooks.mjs": "Webhooks",
  };
  return Object.entries(unused).map(([file, className]) => {
    const core = file.includes("/") ? "../../core/resource.mjs" : "../core/resource.mjs";
    return {
      name: `OpenAI's ${className} resource`,
      module: `openai/resources/${file}`,
      contents: () => `import { APIResource } from "${core}";\nexport class ${className} extends APIResource {}\n`,
    };
  });
}

/** Each replacement with its filter (`path`), the same on every platform. */
const replacements = replacementModules.map((replacement) => ({ ...replacement, path: moduleFilter(replacement.module) }));

/** The esbuild plugin applying `replacements`. */
function replaceUnusedModules() {
  return {
    name: "replace-unused-modules",
    setup(build) {
      for (const replacement of replacements) {
        build.onLoad({ filter: replacement.path }, (args) => ({
          contents: replacement.contents(),
          loader: "js",
          resolveDir: folderOf(args.path),
        }));
      }
    },
  };
}

module.exports = { replaceUnusedModules, replacements, moduleFilter, folderOf };
