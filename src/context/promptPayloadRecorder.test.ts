import { buildSystemPrompt } from "./systemPrompt";
import { formatLayeredPayload, PromptPayloadRecorder } from "./promptPayloadRecorder";

describe("PromptPayloadRecorder", () => {
  const secret = "sk-live-abcdef123456";

  it("keeps the last payload, redacting the current secrets from text and tool arguments", () => {
    let secrets = [secret];
    const recorder = new PromptPayloadRecorder(() => secrets, () => 1000);
    const seen: number[] = [];
    recorder.onRecord((payload) => seen.push(payload.step));
    recorder.record({ runner: "agent", model: "m", step: 1, toolNames: [], messages: [{ role: "user", segments: [{ layer: "L5", text: "first" }] }] });
    const payload = recorder.record({
      runner: "agent",
      model: "m",
      step: 2,
      toolNames: ["webSearch"],
      messages: [
        { role: "system", segments: [{ layer: "L1", text: `key ${secret} here` }] },
        { role: "assistant", segments: [{ layer: "L3", text: "" }], toolCalls: [{ id: "c", name: "webSearch", args: { query: `find ${secret}` } }] },
      ],
    });
    expect(recorder.getLast()).toBe(payload);
    expect(seen).toEqual([1, 2]);
    expect(payload.recordedAt).toBe(1000);
    expect(JSON.stringify(payload)).not.toContain(secret);
    expect(payload.messages[0]?.segments[0]?.text).toBe("key [redacted] here");
    expect(payload.messages[1]?.toolCalls?.[0]?.args).toEqual({ query: "find [redacted]" });
    secrets = ["here"];
    expect(recorder.record({ ...payload, step: 3 }).messages[0]?.segments[0]?.text).toBe("key [redacted] [redacted]");
  });

  it("estimates tokens from the characters sent and marks every layer in the text view", () => {
    const recorder = new PromptPayloadRecorder();
    const payload = recorder.record({
      runner: "chat",
      model: "m",
      step: 1,
      toolNames: [],
      messages: [
        { role: "system", segments: [{ layer: "L1", text: "a".repeat(40) }, { layer: "L2", text: "b".repeat(40) }] },
        { role: "user", segments: [{ layer: "L3", text: "doc", label: "readNote result" }, { layer: "L5", text: "q" }] },
      ],
    });
    expect(payload.estimatedTokens).toBe(21);
    expect(payload.layerTokens).toEqual({ L1: 10, L2: 10, L3: 1, L4: 0, L5: 1 });
    const text = formatLayeredPayload(payload);
    expect(text).toContain("──── system · L1 Instructions ────");
    expect(text).toContain("──── system · L2 Earlier attachments ────");
    expect(text).toContain("──── user · L3 This message's context · readNote result ────\ndoc");
    expect(text).toContain("──── user · L5 Your message ────\nq");
  });
});

describe("the recorder and images", () => {
  it("keeps an image as its name, size and bytes, never its base64, and counts its pixels in the estimate", () => {
    const data = Buffer.from("ЖЖЖ not really an image, only bytes to find again").toString("base64");
    const image = { name: "фото 📷.png", source: "Поездки/фото 📷.png", mimeType: "image/png" as const, width: 1024, height: 768, bytes: 184_320, data };
    const payload = new PromptPayloadRecorder().record({
      runner: "chat",
      model: "m",
      step: 1,
      toolNames: [],
      messages: [{ role: "user", images: [image], segments: [{ layer: "L3", text: "<image>" }, { layer: "L5", text: "Что на фото?" }] }],
    });
    expect(JSON.stringify(payload)).not.toContain(data);
    expect(payload.messages[0]?.images).toEqual([{ name: "фото 📷.png", source: "Поездки/фото 📷.png", mimeType: "image/png", width: 1024, height: 768, bytes: 184_320 }]);
    expect(formatLayeredPayload(payload)).toContain("──── user · images ────\n[image фото 📷.png 1024×768, 184 KB]");
    // 1024 × 768 / 750 = 1049 tokens for the image, in this turn's context.
    expect(payload.layerTokens.L3).toBe(1049 + 2);
    expect(payload.estimatedTokens).toBe(1049 + 5);
  });
});

describe("buildSystemPrompt", () => {
  it("adds the user's instructions and each tool's guidance in the order given", () => {
    const prompt = buildSystemPrompt({
      mode: "agent",
      userInstructions: "  Answer in haiku.  ",
      toolGuidance: [
        { toolName: "localSearch", instructions: "Search first." },
        { toolName: "empty", instructions: "  " },
        { toolName: "readNote", instructions: "Then read." },
      ],
    });
    expect(prompt).toContain("# The user's instructions\nAnswer in haiku.");
    expect(prompt.endsWith("# Tool guidance\n\n## localSearch\nSearch first.\n\n## readNote\nThen read.")).toBe(true);
    expect(prompt).not.toContain("## empty");
  });

  it("is the same text every time for the same input (no date, nothing that varies)", () => {
    const input = { mode: "chat" as const, userInstructions: "" };
    expect(buildSystemPrompt(input)).toBe(buildSystemPrompt(input));
    expect(buildSystemPrompt(input)).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(buildSystemPrompt(input)).not.toContain("#");
  });
});
