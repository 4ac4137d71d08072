/**
 * Each stand-in of scripts/bundle/replaceUnusedModules.js still gives its importers what they use.
 * A small entry is bundled with main.js's plugins (so with the stand-ins) and run here.
 */
import { build } from "esbuild";
import { resolve } from "node:path";
import vm from "node:vm";
import { pluginBuildOptions } from "../../esbuild.options";

const repoRoot = resolve(__dirname, "../..");

const entry = `
import * as z from "zod";
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { Client as TracingClient, RunTree } from "langsmith";
import { calculateMaxTokens } from "@langchain/core/language_models/base";
import { ChatOpenAI } from "@langchain/openai";
export { z, McpClient, TracingClient, RunTree, calculateMaxTokens, ChatOpenAI };
`;

interface Bundled {
  z: typeof import("zod");
  McpClient: new (info: { name: string; version: string }) => unknown;
  TracingClient: new () => { createRun(run: unknown): Promise<void>; awaitPendingTraceBatches(): Promise<void> };
  RunTree: new (config: { name: string; tracingEnabled: boolean }) => { name: string };
  calculateMaxTokens: (input: { prompt: string; modelName: string }) => Promise<number>;
  ChatOpenAI: new (fields: { model: string; apiKey: string }) => { profile: object; getNumTokens(text: string): Promise<number> };
  inputs: string[];
}

async function bundleWithStandIns(): Promise<Bundled> {
  const { plugins, define } = pluginBuildOptions(true);
  const result = await build({
    stdin: { contents: entry, resolveDir: repoRoot, loader: "ts" },
    absWorkingDir: repoRoot,
    bundle: true,
    format: "cjs",
    platform: "browser",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins,
    define,
  });
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = vm.runInThisContext(`(function (module, exports) {${result.outputFiles[0]!.text}\n})`, { filename: "stand-ins.js" }) as (module: unknown, exports: unknown) => void;
  wrapper(module, module.exports);
  return { ...(module.exports as unknown as Bundled), inputs: Object.keys(result.metafile.inputs) };
}

describe("the stand-ins in main.js", () => {
  let bundled: Bundled;
  beforeAll(async () => {
    bundled = await bundleWithStandIns();
  });

  it("zod keeps English messages and only the English locale", () => {
    const { z } = bundled;
    const parsed = z.object({ path: z.string() }).safeParse({ path: 3 });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]!.message).toBe("Invalid input: expected string, received number");
    expect(Object.keys(z.locales)).toEqual(["en"]);
  });

  it("the MCP client validates structured tool output without Ajv", () => {
    const client = new bundled.McpClient({ name: "test", version: "0" }) as { _jsonSchemaValidator: { getValidator(schema: object): (input: unknown) => { valid: boolean; errorMessage?: string } } };
    const validate = client._jsonSchemaValidator.getValidator({ type: "object", properties: { count: { type: "integer" } }, required: ["count"] });
    expect(validate({ count: 2 }).valid).toBe(true);
    const invalid = validate({ count: "two" });
    expect(invalid.valid).toBe(false);
    expect(invalid.errorMessage).toMatch(/count|integer/);
    expect(bundled.inputs.filter((path) => /node_modules\/ajv/.test(path))).toEqual([]);
  });

  it("LangSmith: RunTree still builds, nothing is queued, and a send fails with a clear message", async () => {
    expect(new bundled.RunTree({ name: "<runnable_lambda>", tracingEnabled: false }).name).toBe("<runnable_lambda>");
    const client = new bundled.TracingClient();
    await expect(client.awaitPendingTraceBatches()).resolves.toBeUndefined();
    await expect(client.createRun({ name: "run" })).rejects.toThrow(/LangSmith tracing is not included in Vault Copilot.*nothing was sent/);
  });

  it("LangChain counts tokens by characters, never fetching tiktoken's encodings", async () => {
    const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    const fetched = jest.spyOn(globalThis, "fetch");
    try {
      // gpt-4's 8,192 context less 12 characters / 4.
      await expect(bundled.calculateMaxTokens({ prompt: "twelve chars", modelName: "gpt-4" })).resolves.toBe(8192 - 3);
      await expect(new bundled.ChatOpenAI({ model: "gpt-4o", apiKey: "x" }).getNumTokens("twelve chars")).resolves.toBe(3);
      expect(fetched).not.toHaveBeenCalled();
      expect(bundled.inputs.filter((path) => path.includes("js-tiktoken"))).toEqual([]);
    } finally {
      warn.mockRestore();
      fetched.mockRestore();
    }
  });

  it("the OpenAI client keeps the resources ChatOpenAI calls, and the others are empty", () => {
    const model = new bundled.ChatOpenAI({ model: "gpt-4o", apiKey: "x" }) as unknown as { _getClientOptions(options: unknown): unknown; client: Record<string, Record<string, unknown>> };
    model._getClientOptions(undefined);
    const { client } = model;
    expect(typeof (client.chat!.completions as { create?: unknown }).create).toBe("function");
    expect(typeof client.responses!.create).toBe("function");
    expect(typeof client.moderations!.create).toBe("function");
    for (const unused of ["beta", "files", "fineTuning", "vectorStores", "audio", "images", "realtime", "uploads", "batches"]) {
      expect([unused, typeof client[unused]!.create, typeof client[unused]!.list]).toEqual([unused, "undefined", "undefined"]);
    }
    expect(bundled.inputs.filter((path) => /openai\/resources\/(beta|fine-tuning|vector-stores|audio|realtime)\//.test(path) && !/\/(beta|fine-tuning|vector-stores|audio|realtime)\.mjs$/.test(path))).toEqual([]);
  });

  it("ChatOpenAI's model profile table is empty (its profile an empty object)", () => {
    expect(new bundled.ChatOpenAI({ model: "gpt-4o", apiKey: "x" }).profile).toEqual({});
  });
});
