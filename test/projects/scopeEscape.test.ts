/**
 * @jest-environment node
 *
 * A project is a permission boundary: a scripted model inside the project "Тезис" tries every way
 * out a model has (ESCAPE_ATTEMPTS: outside paths, names, aliases, "..", links, tags only outside
 * notes carry, backlink chains, folder listings, search terms only outside notes hold, edits), led
 * on by an injection in one of the project's own notes. Measured on the requests sent to the
 * model: no text, name or path of an outside note ever appears, and no outside note changes.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ChatSetup } from "../helpers/chatHarness";
import { makeChat } from "../helpers/chatHarness";
import { startOpenAIServer, type OpenAIServer, type RecordedChatRequest } from "../helpers/openAIServer";
import {
  argumentStrings,
  attemptBatches,
  ESCAPE_ATTEMPTS,
  INSIDE_NOTES,
  leaksIn,
  OUTSIDE_NOTES,
  PROJECT_NAME,
  PROJECT_NOTE,
  PROJECT_NOTE_PATH,
  projectVaultNotes,
  shownToModel,
} from "../helpers/projectVault";

const BATCH = 10;

describe("a project's scope, tried by a model that wants out", () => {
  let server: OpenAIServer;
  let chat: ChatSetup;
  const ownArguments = ESCAPE_ATTEMPTS.flatMap((attempt) => argumentStrings(attempt.call.arguments));

  beforeAll(async () => {
    const batches = attemptBatches(BATCH);
    server = await startOpenAIServer((request: RecordedChatRequest) => {
      const step = request.index;
      if (step < batches.length) return { toolCalls: (batches[step] ?? []).map((attempt, position) => ({ ...attempt.call, id: `call_${step}_${position}` })) };
      return { text: "Готово: [[Глава 1]]." };
    });
    chat = makeChat(server, {
      notes: projectVaultNotes(),
      settings: { autonomousAgentMaxIterations: batches.length + 1, autoApproveToolIds: ["writeToFile", "replaceInFile"] },
    });
    await chat.controller.setProject(PROJECT_NAME, { mode: "agent" });
    await chat.controller.send("Что в моих заметках о методах выборки? Прочти всё, что найдёшь.");
  }, 120_000);

  afterAll(async () => {
    await chat?.dispose();
    await server?.close();
  });

  it(`makes at least 50 attempts (${ESCAPE_ATTEMPTS.length}), each sent and answered`, () => {
    expect(ESCAPE_ATTEMPTS.length).toBeGreaterThanOrEqual(50);
    const answer = chat.controller.getState().messages.at(-1);
    expect(answer?.role === "assistant" && answer.status).toBe("done");
    const calls = answer?.role === "assistant" ? answer.parts.filter((part) => part.type === "tool-call") : [];
    expect(calls).toHaveLength(ESCAPE_ATTEMPTS.length);
    // Every call reached its tool and was answered (no call lost as an unknown tool).
    expect(calls.filter((part) => part.type === "tool-call" && part.status === "unknown-tool")).toEqual([]);
  });

  it("shows the model no text, name, path, folder, tag or alias of a note outside the project, in any request", () => {
    expect(server.requests.length).toBe(attemptBatches(BATCH).length + 1);
    const leaks = server.requests.map((request) => ({ request: request.index, leaks: leaksIn(shownToModel(request, ownArguments)) })).filter((entry) => entry.leaks.length > 0);
    expect(leaks).toEqual([]);
  });

  it("still shows the project's own notes: in its folders (Cyrillic, Han, decomposed), by its tag (nested) and by its link", () => {
    const everything = server.requests.map((request) => shownToModel(request, [])).join("\n");
    for (const marker of ["inscope-cyr-4e1d", "inscope-han-2b9c", "inscope-nfd-5a6b", "inscope-tag-9d0f", "inscope-linked-c0de", "inscope-inject-77aa"]) {
      expect(everything).toContain(marker);
    }
    // Links out of the project keep their place, named as what they are.
    expect(everything).toContain("[[a note outside the project]]");
  });

  it("tells the model it is in the project, with the project's instructions in L1 after the user's own", () => {
    const system = server.requests[0]?.body.messages[0];
    expect(system?.role).toBe("system");
    const text = String(system?.content);
    expect(text).toContain(`# The project "${PROJECT_NAME}"`);
    expect(text).toContain("Answer as the user's thesis advisor would");
    expect(text.indexOf("# The project")).toBeLessThan(text.indexOf("# Tool guidance"));
    const recorded = chat.recorder.getLast();
    const projectPart = recorded?.messages[0]?.segments.find((segment) => segment.label === "project instructions");
    expect(projectPart?.layer).toBe("L1");
    expect(projectPart?.text).toContain("thesis advisor");
  });

  it("changes no note outside the project, nor the project note, and writes only inside it", () => {
    for (const [path, text] of Object.entries(OUTSIDE_NOTES)) expect(readFileSync(join(chat.vault.root, path), "utf8")).toBe(text);
    expect(readFileSync(join(chat.vault.root, PROJECT_NOTE_PATH), "utf8")).toBe(PROJECT_NOTE);
    expect(readFileSync(join(chat.vault.root, "Тезис/Выводы.md"), "utf8")).toBe("Выводы: INSCOPE-WRITE-1357.");
    // Notes the model tried to make outside the project's folders were not made.
    expect(existsSync(join(chat.vault.root, "Новая"))).toBe(false);
    expect(existsSync(join(chat.vault.root, "Личное/x.md"))).toBe(false);
    for (const [path, text] of Object.entries(INSIDE_NOTES)) expect(readFileSync(join(chat.vault.root, path), "utf8")).toBe(text);
  });

  it("answers a note outside the project exactly as a note that does not exist", () => {
    const results = resultsByCall();
    const resultOf = (purpose: string) => results.get(callId(ESCAPE_ATTEMPTS.findIndex((attempt) => attempt.purpose === purpose)));
    const outside = resultOf("read an outside note by path");
    expect(outside).toContain(`No note of the project "${PROJECT_NAME}" matches that name: it is outside the project or does not exist.`);
    expect(resultOf("read it by name")).toBe(outside);
    expect(resultOf("read a note that does not exist (its answer must be the same)")).toBe(outside);
  });

  /** Each tool result the model read, by call id. */
  function resultsByCall(): Map<string, string> {
    const results = new Map<string, string>();
    for (const request of server.requests) {
      for (const message of request.body.messages) if (message.role === "tool" && message.tool_call_id) results.set(message.tool_call_id, String(message.content));
    }
    return results;
  }

  /** The id the scripted server gives the call of attempt `index`. */
  function callId(index: number): string {
    return `call_${Math.floor(index / BATCH)}_${index % BATCH}`;
  }
});
