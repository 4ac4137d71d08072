import { DEFAULT_SETTINGS } from "../constants";
import type { CopilotSettings } from "../settings/settingsSchema";
import { knownToTakeImages, knownToTakeTools, newChatMode, withImageSupport, withListedImageSupport, withToolSupport } from "./modelChoice";

const settings = (change: Partial<CopilotSettings> = {}): CopilotSettings => ({
  ...structuredClone(DEFAULT_SETTINGS),
  provider: { ...DEFAULT_SETTINGS.provider, preset: "ollama", baseUrl: "http://127.0.0.1:11434/v1", model: "qwen3:8b" },
  models: [{ ...DEFAULT_SETTINGS.provider, preset: "custom", baseUrl: "http://127.0.0.1:1234/v1", model: "локальная-модель" }],
  ...change,
});

describe("a new chat's mode", () => {
  it("is Agent only for a model known to take tools, Chat while it is not known or known not to", () => {
    const fresh = settings({ defaultMode: "agent" });
    expect(newChatMode(fresh, "qwen3:8b")).toBe("chat");
    const known = withToolSupport(fresh, "qwen3:8b", true);
    expect(newChatMode(known, "qwen3:8b")).toBe("agent");
    // Another configured model is its own case, and so is the same name on another server.
    expect(newChatMode(known, "локальная-модель")).toBe("chat");
    const moved = { ...known, provider: { ...known.provider, baseUrl: "http://192.168.1.20:11434/v1" } };
    expect(knownToTakeTools(moved, "qwen3:8b")).toBeNull();
    expect(newChatMode(withToolSupport(known, "qwen3:8b", false), "qwen3:8b")).toBe("chat");
  });

  it("follows the settings' mode for Chat and Vault QA whatever is known of tools", () => {
    expect(newChatMode(settings({ defaultMode: "vault-qa" }), "qwen3:8b")).toBe("vault-qa");
    expect(newChatMode(withToolSupport(settings({ defaultMode: "chat" }), "qwen3:8b", true), "qwen3:8b")).toBe("chat");
  });
});

describe("a model's image input", () => {
  it("fills in what the server's list says for models the user has not set, and leaves the user's setting as it is", () => {
    const start = withImageSupport(settings(), "qwen3:8b", false);
    const listed = withListedImageSupport(start, start.provider, { "qwen3:8b": true, "llava:13b": true, "текст-only": false });
    expect(knownToTakeImages(listed, "qwen3:8b")).toBe(false);
    expect(knownToTakeImages(listed, "llava:13b")).toBe(true);
    expect(knownToTakeImages(listed, "текст-only")).toBe(false);
    // The same name on another configured server is another model.
    expect(knownToTakeImages(listed, "локальная-модель")).toBeNull();
    expect(withListedImageSupport(listed, listed.provider, { "llava:13b": true })).toBe(listed);
  });
});
