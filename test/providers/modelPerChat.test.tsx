/**
 * Several models configured, one default, a different one per chat: the chat view's model picker
 * offers the configured models; a chat switched to one of them is answered by that model's own
 * provider (here Anthropic's API), while a new chat goes back to the default.
 */
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { DEFAULT_SETTINGS } from "../../src/constants";
import { configuredModelNames, makeDefaultModel, modelSettingsFor } from "../../src/LLMProviders/modelChoice";
import { costOf } from "../../src/LLMProviders/tokenUsage";
import { startAnthropicServer, type AnthropicServer } from "../helpers/anthropicServer";
import { openChatView, type ChatViewSetup } from "../helpers/chatViewHarness";
import { startOpenAIServer, type OpenAIServer } from "../helpers/openAIServer";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let openai: OpenAIServer | undefined;
let anthropic: AnthropicServer | undefined;
let chat: ChatViewSetup | undefined;

afterEach(async () => {
  await act(async () => chat?.close());
  chat = undefined;
  await openai?.close();
  await anthropic?.close();
  openai = undefined;
  anthropic = undefined;
});

async function send(text: string): Promise<void> {
  const box = screen.getByRole("textbox", { name: "Message" });
  fireEvent.change(box, { target: { value: text } });
  fireEvent.keyDown(box, { key: "Enter" });
}

describe("a model per chat", () => {
  it("answers a chat switched to a configured Claude model through Anthropic, and a new chat through the default", async () => {
    const defaultServer = await startOpenAIServer([{ text: "From the default." }, { text: "Default again." }]);
    const claude = await startAnthropicServer([{ text: "From Claude." }]);
    openai = defaultServer;
    anthropic = claude;
    const models = [{ ...DEFAULT_SETTINGS.provider, preset: "anthropic" as const, baseUrl: claude.baseUrl, model: "claude-test", apiKeySecretId: "test-key" }];
    chat = await act(() => openChatView(defaultServer, { settings: { defaultMode: "chat", models } }));

    await send("first");
    await waitFor(() => expect(screen.getByRole("log", { name: "Conversation" }).textContent).toContain("From the default."));
    const picker = screen.getByRole<HTMLSelectElement>("combobox", { name: "Model" });
    await waitFor(() => expect([...picker.options].map((option) => option.value)).toEqual(["test-model", "claude-test"]));
    fireEvent.change(picker, { target: { value: "claude-test" } });
    await send("second");
    await waitFor(() => expect(screen.getByRole("log", { name: "Conversation" }).textContent).toContain("From Claude."));
    expect(claude.requests).toHaveLength(1);
    expect(claude.requests[0]!.body.model).toBe("claude-test");
    // The Claude request carries the conversation so far, the default's answer included.
    expect(JSON.stringify(claude.requests[0]!.body.messages)).toContain("From the default.");

    fireEvent.click(screen.getByRole("button", { name: "New chat" }));
    await waitFor(() => expect(picker.value).toBe("test-model"));
    await send("third");
    await waitFor(() => expect(screen.getByRole("log", { name: "Conversation" }).textContent).toContain("Default again."));
    expect(defaultServer.requests).toHaveLength(2);
  });
});

describe("model choice", () => {
  const other = { ...DEFAULT_SETTINGS.provider, preset: "gemini" as const, model: "gemini-x", baseUrl: "https://example.com/v1beta" };
  const settings = { ...structuredClone(DEFAULT_SETTINGS), models: [other] };

  it("finds a configured model by name, and asks the default's server for any other name", () => {
    expect(modelSettingsFor(settings, "gemini-x")).toBe(other);
    expect(modelSettingsFor(settings, DEFAULT_SETTINGS.provider.model)).toBe(settings.provider);
    expect(modelSettingsFor(settings, "listed-by-server")).toEqual({ ...settings.provider, model: "listed-by-server" });
    expect(configuredModelNames(settings)).toEqual([DEFAULT_SETTINGS.provider.model, "gemini-x"]);
  });

  it("makes another model the default without losing the old one", () => {
    const swapped = makeDefaultModel(settings, "gemini-x");
    expect(swapped.provider).toBe(other);
    expect(swapped.models).toEqual([settings.provider]);
    expect(makeDefaultModel(swapped, DEFAULT_SETTINGS.provider.model).models).toEqual([other]);
  });

  it("prices fresh input, cache reads and writes, and output; no cost without input and output prices", () => {
    const usage = { inputTokens: 1_000_000, outputTokens: 1_000_000, cacheReadTokens: 400_000, cacheWriteTokens: 100_000 };
    expect(costOf(usage, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 })).toBeCloseTo(0.5 * 3 + 0.4 * 0.3 + 0.1 * 3.75 + 15, 10);
    expect(costOf(usage, { input: 3, output: 15, cacheRead: null, cacheWrite: null })).toBeCloseTo(18, 10);
    expect(costOf(usage, { input: 3, output: null, cacheRead: null, cacheWrite: null })).toBeNull();
  });
});
