#!/usr/bin/env node
// The browser demo: the chat view without Obsidian.
//
//   npm run demo -- --vault DIR --base-url URL --model NAME [--api-key-env VAR] [--port N]
//
// Serves on 127.0.0.1 a page that loads the built main.js with the Obsidian test double
// (test/obsidian), the plugin enabled with provider preset "custom" at URL with NAME, the chat view
// open in the right sidebar, and the folder DIR as the vault. Prints `Serving http://127.0.0.1:PORT/`
// and runs until stopped. Page options: `?theme=light|dark`, `?width=N` (sidebar px, default 340),
// `?mobile=1` (Obsidian on a phone: no Node require, so requests go through requestUrl; the chat
// view fills the screen; open it in a touch-enabled page, or the browser's device emulation, for
// touch events), `?keyboard=N` (an on-screen keyboard of N px while a text field has the focus:
// the visual viewport gets that much shorter, see test/demo/onScreenKeyboard.ts), and `?canary=1` (a second plugin with Dataview's and friends' code block
// languages and an inline-query post processor, recording in window.demo.canaryCalls whenever
// rendered Markdown reaches them: for tests that model output runs nothing).
// `--completion-model NAME` switches inline completion on in the note editor (a real CodeMirror 6
// editor carrying the plugin's editor extensions), with that model at the same base URL.
//
// How it is put together, and why:
// - The page's sources are in test/demo/ (TypeScript, type-checked and linted with the double they
//   drive; it is test tooling, never shipped), bundled here with esbuild at start. main.js is
//   evaluated in the page as a CommonJS module (served wrapped in a function) whose require("obsidian") returns the double, as
//   test/bundle/mainBundle.test.ts does in a jsdom realm. main.js is rebuilt first when it is
//   missing or older than src/ (the plugin options of esbuild.options.js, as `npm run build`).
// - The vault: the page loads the folder's notes (GET /api/notes) into the double's vault, and the
//   vault's mirror (test/demo/diskMirror.ts) sends each change to notes and folders to
//   POST /api/vault, which applies it inside DIR only (scripts/demo/vaultFolder.mjs); the vault's
//   promise settles after the server answered, so an edit the UI calls accepted is on disk.
//   The config folder (.obsidian/) stays in memory: the demo's settings (another base URL, a model)
//   must never overwrite the settings of a plugin installed in that vault, nor Obsidian's own.
//   Trashed notes go to DIR/.trash/, as Obsidian's "Move to Obsidian trash" does. Notes are read
//   once, when the page loads: reload it to see changes made to the folder by other programs.
// - Model requests: desktop Obsidian streams them through Node's http (window.require("http"),
//   src/net/obsidianFetch.ts). The page gives the plugin a window.require whose http and
//   https (test/demo/nodeHttpShim.ts) send each request to /proxy here, which forwards it to
//   --base-url only, adds the key from --api-key-env (the key never reaches the page), streams the
//   answer back as it comes and cuts the upstream connection when the page aborts
//   (scripts/demo/modelProxy.mjs). The page's own fetch to --base-url (what the double's requestUrl
//   uses, as the plugin does on mobile) goes through the same proxy (test/demo/proxiedFetch.ts).
// - Only the page itself may use the API: requests must name this server as Host (no DNS
//   rebinding), carry no foreign Origin, and the writing routes need the X-Vault-Copilot-Demo
//   header (a cross-site form cannot set it), so another web site cannot write to the vault or
//   spend the key.
import { build } from "esbuild";
import { existsSync, readdirSync, readFileSync, renameSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { proxyModelRequest } from "./demo/modelProxy.mjs";
import { applyChange, listVault, VaultFolderError } from "./demo/vaultFolder.mjs";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const USAGE = "usage: npm run demo -- --vault DIR --base-url URL --model NAME [--api-key-env VAR] [--port N] [--model-takes-tools yes|no] [--model-takes-images yes|no] [--completion-model NAME]";

function fail(message) {
  console.error(`demo: ${message}\n${USAGE}`);
  process.exit(2);
}

function parseArguments(argv) {
  const known = new Set(["--vault", "--base-url", "--model", "--api-key-env", "--port", "--model-takes-tools", "--model-takes-images", "--completion-model"]);
  const values = {};
  for (let index = 0; index < argv.length; index += 2) {
    const name = argv[index];
    const value = argv[index + 1];
    if (!known.has(name)) fail(`unknown argument ${name}`);
    if (value === undefined || value.startsWith("--")) fail(`${name} needs a value`);
    values[name] = value;
  }
  for (const required of ["--vault", "--base-url", "--model"]) if (!values[required]) fail(`${required} is required`);
  const vault = resolve(values["--vault"]);
  if (!existsSync(vault) || !statSync(vault).isDirectory()) fail(`no folder at ${vault}`);
  let baseUrl;
  try {
    baseUrl = new URL(values["--base-url"]);
  } catch {
    fail(`--base-url is not a URL: ${values["--base-url"]}`);
  }
  if (baseUrl.protocol !== "http:" && baseUrl.protocol !== "https:") fail("--base-url must be http: or https:");
  let apiKey;
  if (values["--api-key-env"]) {
    apiKey = process.env[values["--api-key-env"]];
    if (!apiKey) fail(`the environment variable ${values["--api-key-env"]} is empty or not set`);
  }
  const port = values["--port"] === undefined ? 5174 : Number(values["--port"]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, not ${values["--port"]}`);
  // What the plugin knows of the model's tool calling, as after Test connection (unknown when not given).
  const takesTools = values["--model-takes-tools"];
  if (takesTools !== undefined && takesTools !== "yes" && takesTools !== "no") fail(`--model-takes-tools is yes or no, not ${takesTools}`);
  // Its "Takes images" setting, as the user would set it (not known when not given: images are left out).
  const takesImages = values["--model-takes-images"];
  if (takesImages !== undefined && takesImages !== "yes" && takesImages !== "no") fail(`--model-takes-images is yes or no, not ${takesImages}`);
  return {
    vault,
    baseUrl,
    model: values["--model"],
    apiKey,
    port,
    modelTakesTools: takesTools === undefined ? null : takesTools === "yes",
    modelTakesImages: takesImages === undefined ? null : takesImages === "yes",
    completionModel: values["--completion-model"] ?? null,
  };
}

function newestModification(folder) {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestModification(path) : statSync(path).mtimeMs);
  }
  return newest;
}

async function ensureMainJs() {
  const mainJs = join(repo, "main.js");
  const sources = Math.max(newestModification(join(repo, "src")), statSync(join(repo, "esbuild.options.js")).mtimeMs);
  if (existsSync(mainJs) && statSync(mainJs).mtimeMs >= sources) return;
  console.log("demo: building main.js (missing or older than src/)");
  const { pluginBuildOptions } = createRequire(import.meta.url)(join(repo, "esbuild.options.js"));
  // Built beside it and renamed into place: two demos starting at once (parallel e2e files) must
  // never serve half a file.
  const temporary = `${mainJs}.demo-${process.pid}.tmp`;
  await build({ ...pluginBuildOptions(true), absWorkingDir: repo, outfile: temporary, logLevel: "warning" });
  renameSync(temporary, mainJs);
}

async function bundlePage() {
  const result = await build({
    entryPoints: [join(repo, "test/demo/page.ts")],
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    sourcemap: "inline",
    write: false,
    absWorkingDir: repo,
    logLevel: "warning",
  });
  return result.outputFiles[0].text;
}

const STATIC_FILES = {
  "/": { file: "test/demo/index.html", type: "text/html; charset=utf-8" },
  "/styles.css": { file: "styles.css", type: "text/css; charset=utf-8" },
  "/obsidian-theme.css": { file: "test/demo/obsidianTheme.css", type: "text/css; charset=utf-8" },
  "/demo.css": { file: "test/demo/demo.css", type: "text/css; charset=utf-8" },
};

function sendJson(response, status, body) {
  response.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  response.end(JSON.stringify(body));
}

async function readBody(request) {
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  return Buffer.concat(chunks).toString("utf8");
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  await ensureMainJs();
  const pageScript = await bundlePage();
  const manifest = JSON.parse(readFileSync(join(repo, "manifest.json"), "utf8"));
  let origin = "";

  const server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      console.error("demo:", error);
      if (!response.headersSent) sendJson(response, 500, { error: String(error?.message ?? error) });
      else response.destroy();
    });
  });

  async function handle(request, response) {
    const url = new URL(request.url ?? "/", origin);
    if (request.headers.host !== new URL(origin).host) return sendJson(response, 403, { error: "This server answers only to its own address" });
    if (request.headers.origin !== undefined && request.headers.origin !== origin) return sendJson(response, 403, { error: "Requests from other sites are refused" });
    const fromPage = request.headers["x-vault-copilot-demo"] === "1";

    if (url.pathname === "/proxy") {
      if (!fromPage) return sendJson(response, 403, { error: "The proxy serves the demo page only" });
      return proxyModelRequest(request, response, { baseUrl: options.baseUrl, apiKey: options.apiKey });
    }
    if (url.pathname === "/api/config" && request.method === "GET") {
      return sendJson(response, 200, { vaultName: basename(options.vault), baseUrl: options.baseUrl.href, model: options.model, modelTakesTools: options.modelTakesTools, modelTakesImages: options.modelTakesImages, completionModel: options.completionModel, manifest });
    }
    if (url.pathname === "/api/notes" && request.method === "GET") return sendJson(response, 200, await listVault(options.vault));
    if (url.pathname === "/api/vault" && request.method === "POST") {
      if (!fromPage) return sendJson(response, 403, { error: "Vault changes are accepted from the demo page only" });
      try {
        await applyChange(options.vault, JSON.parse(await readBody(request)));
        return sendJson(response, 200, { ok: true });
      } catch (error) {
        const status = error instanceof VaultFolderError ? error.status : error instanceof SyntaxError ? 400 : 500;
        return sendJson(response, status, { error: error.message });
      }
    }
    if (url.pathname === "/main-module.js") {
      // main.js as a CommonJS module function; test/demo/page.ts calls it with the double as "obsidian".
      const code = readFileSync(join(repo, "main.js"), "utf8");
      response.writeHead(200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store" });
      return response.end(`window.vaultCopilotDemoMainModule = function (module, exports, require) {\n${code}\n};\n//# sourceURL=main.js\n`);
    }
    if (url.pathname === "/page.js") {
      response.writeHead(200, { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-store" });
      return response.end(pageScript);
    }
    if (url.pathname === "/favicon.ico") return response.writeHead(204).end();
    const entry = STATIC_FILES[url.pathname];
    if (entry && request.method === "GET") {
      response.writeHead(200, { "Content-Type": entry.type, "Cache-Control": "no-store" });
      return response.end(readFileSync(join(repo, entry.file)));
    }
    sendJson(response, 404, { error: `Nothing at ${url.pathname}` });
  }

  await new Promise((done, reject) => {
    server.once("error", reject);
    server.listen(options.port, "127.0.0.1", done);
  });
  origin = `http://127.0.0.1:${server.address().port}`;
  console.log(`Serving ${origin}/`);
  const stop = () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

main().catch((error) => {
  console.error(`demo: ${error?.message ?? error}`);
  process.exit(1);
});
