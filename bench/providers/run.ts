// The providers benchmark (`npm run bench -- providers`): how much of each request's cacheable
// prefix Anthropic's prompt cache serves, over the agent benchmark's scripted ten-turn
// conversation (attached notes, a tool step every other turn), through the real agent runner and
// Anthropic client against the scripted Messages API server, whose cache follows the documented
// rules (prefixes written at breakpoints, read back within a 20-block look-back).
//
// A request's cacheable prefix is what it shares, from its first block, with the request before
// it; the goal is that at least 90 % of it is read from the cache. Then one event of 8 and 50 MB
// through each client (largeEvent.ts). Bundled and run by bench/run.mjs.
import { ContextManager } from "../../src/context/ContextManager";
import { AutonomousAgentChainRunner } from "../../src/LLMProviders/chainRunner/AutonomousAgentChainRunner";
import { createChatModel } from "../../src/LLMProviders/chatModelFactory";
import { DEFAULT_SETTINGS } from "../../src/constants";
import { MapSecretStore } from "../../src/ports/SecretStore";
import { initializeBuiltinTools } from "../../src/tools/builtinTools";
import { ToolRegistry } from "../../src/tools/ToolRegistry";
import { FsVault } from "../../src/vault/FsVault";
import { sharedPrefixTokens, startAnthropicServer } from "../../test/helpers/anthropicServer";
import { makeTempVault } from "../../test/helpers/tempVault";
import { makeToolDependencies } from "../../test/helpers/toolHarness";
import { conversationScript, noteText } from "../agent/prefixShare";
import { largeEventFigures } from "./largeEvent";

async function main(): Promise<void> {
  const { turns, notes } = conversationScript();
  const vault = makeTempVault(notes, "vault-copilot-bench-");
  const answers = turns.map((_, index) => `Answer ${index + 1}: ${noteText(100 + index, 300).split("\n").slice(2).join(" ")}`);
  let turnIndex = 0;
  const server = await startAnthropicServer((request) => {
    const turn = turns[turnIndex];
    const toolResults = request.body.messages.flatMap((message) => message.content).filter((block) => block.type === "tool_result").length;
    // History keeps no tool results, so any in the request are this turn's.
    if (turn?.readsNote && toolResults === 0) {
      return { toolCalls: [{ id: `toolu_${turnIndex}`, name: "readNote", arguments: JSON.stringify({ notePath: `Note ${(turnIndex % 10) + 1}` }) }] };
    }
    return { text: answers[turnIndex] ?? "" };
  });
  try {
    const settings = {
      ...structuredClone(DEFAULT_SETTINGS),
      provider: { ...DEFAULT_SETTINGS.provider, preset: "anthropic" as const, baseUrl: server.baseUrl, model: "claude-bench", apiKeySecretId: "bench" },
    };
    const secrets = new MapSecretStore();
    secrets.set("bench", "bench-key");
    const registry = new ToolRegistry();
    initializeBuiltinTools(registry, makeToolDependencies({ vault: new FsVault(vault.root), settings }));
    const runner = new AutonomousAgentChainRunner({
      getSettings: () => settings,
      createModel: () => createChatModel(settings.provider, { fetch: globalThis.fetch, secrets }),
      registry,
      vaultAvailable: () => true,
    });
    const conversation = new ContextManager();
    const firstOfTurn: number[] = [];
    for (turnIndex = 0; turnIndex < turns.length; turnIndex++) {
      const turn = turns[turnIndex]!;
      firstOfTurn.push(server.requests.length);
      const result = await runner.run({ userMessage: turn.question, attachments: turn.attachments, conversation, signal: new AbortController().signal });
      if (result.status !== "completed") throw new Error(`turn ${turnIndex + 1} failed: ${result.error?.message ?? ""}`);
    }

    const rows = server.requests.map((request, index) => {
      const usage = server.usages[index]!;
      const total = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
      const cacheable = index === 0 ? 0 : sharedPrefixTokens(server.requests[index - 1]!.body, request.body);
      return { index, total, cacheable, read: usage.cache_read_input_tokens, written: usage.cache_creation_input_tokens, firstOfTurn: firstOfTurn.includes(index) };
    });
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const share = (selected: typeof rows) => sum(selected.map((row) => Math.min(row.read, row.cacheable))) / Math.max(1, sum(selected.map((row) => row.cacheable)));
    const pct = (value: number) => `${(value * 100).toFixed(1)} %`;
    const out: string[] = [
      `Anthropic prompt cache over ${turns.length} turns (${rows.length} requests, attached notes, a tool step every other turn):`,
      `  input tokens ${sum(rows.map((row) => row.total))}, read from the cache ${sum(rows.map((row) => row.read))}, written to it ${sum(rows.map((row) => row.written))}`,
      `  cacheable prefix (shared with the request before) read from the cache: ${pct(share(rows.slice(1)))} (goal >= 90 %)`,
      `    within a turn: ${pct(share(rows.filter((row) => row.index > 0 && !row.firstOfTurn)))}, first request of a turn: ${pct(share(rows.filter((row) => row.index > 0 && row.firstOfTurn)))}`,
      `  all input tokens read from the cache: ${pct(sum(rows.map((row) => row.read)) / sum(rows.map((row) => row.total)))}`,
      `  request  tokens  cacheable  read  written`,
      ...rows.map((row) => `  ${String(row.index + 1).padStart(7)}${row.firstOfTurn ? "*" : " "} ${String(row.total).padStart(6)} ${String(row.cacheable).padStart(10)} ${String(row.read).padStart(5)} ${String(row.written).padStart(8)}`),
      `  (* first request of a turn)`,
      "",
    ];
    process.stdout.write(out.join("\n"));
    process.stdout.write(`${(await largeEventFigures()).join("\n")}\n`);
  } finally {
    await server.close();
    vault.remove();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
