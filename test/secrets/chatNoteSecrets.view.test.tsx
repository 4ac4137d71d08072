/**
 * The chat view saving a chat whose first question carries the secrets the plugin holds (the
 * default model's key, another configured model's key, an MCP server's env value): none of them is
 * stored in the vault, neither in a note's text nor in its name, though the name comes from that question.
 */
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { DEFAULT_SETTINGS } from "../../src/constants";
import { vaultContents } from "../helpers/vaultContents";
import { chatViewSession } from "../helpers/chatViewSession";
import { TEST_API_KEY } from "../helpers/runnerHarness";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const OTHER_KEY = "sk-ant-другой-ключ-77aa";
const MCP_VALUE = "ghp_مفتاح_令牌_0c9d8e";
const session = chatViewSession();


it("names and writes a saved chat without the keys and MCP values typed into its first question", async () => {
  const chat = await session.open([{ text: "Понятно, I will not repeat them." }], {
    settings: {
      defaultMode: "chat",
      models: [{ ...DEFAULT_SETTINGS.provider, model: "other-model", apiKeySecretId: "other-key" }],
      mcpServers: [{ name: "tracker", enabled: false, transport: "stdio", command: "tracker", args: [], env: { TRACKER_TOKEN: "tracker-token" } }],
    },
    secrets: { "other-key": OTHER_KEY, "tracker-token": MCP_VALUE },
  });
  const box = screen.getByRole("textbox", { name: "Message" });
  fireEvent.change(box, { target: { value: `${TEST_API_KEY} ${OTHER_KEY} ${MCP_VALUE} ключи` } });
  fireEvent.keyDown(box, { key: "Enter" });
  await waitFor(() => expect(screen.getByRole("log", { name: "Conversation" }).textContent).toContain("I will not repeat them."));
  // Closing the view waits for the last write.
  await act(async () => chat.leaf.close());

  const all = vaultContents(chat.vault.root);
  const chats = [...all.keys()].filter((path) => path.startsWith("copilot/chats/") && path.endsWith(".md"));
  expect(chats).toEqual([expect.stringMatching(/^copilot\/chats\/\d{4}-\d{2}-\d{2} redacted redacted redacted ключи\.md$/)]);
  for (const secret of [TEST_API_KEY, OTHER_KEY, MCP_VALUE]) {
    for (const [path, bytes] of all) {
      expect(path).not.toContain(secret);
      expect(bytes).not.toContain(secret);
    }
  }
  expect(all.get(chats[0] ?? "")).toContain("[redacted] [redacted] [redacted] ключи");
});
