/**
 * Which models get images, through the service graph as the plugin builds it: the default model's
 * "Takes images" filled in from the server's list, a listed model the settings do not name going
 * by the list, and every other model getting none (its images left out, the chat told).
 */
import { makeChat, type ChatSetup } from "../../test/helpers/chatHarness";
import { pngImage } from "../../test/helpers/imageFiles";
import { openAIImages } from "../../test/helpers/imageWireChecks";
import { startOpenAIServer, type OpenAIServer } from "../../test/helpers/openAIServer";
import { imageChip } from "../chat/chipArtifacts";
import { knownToTakeImages } from "../LLMProviders/modelChoice";
import type { AnswerNotice } from "../LLMProviders/chainRunner/ChainEvents";

let server: OpenAIServer;
let chat: ChatSetup;

beforeEach(async () => {
  // The server refuses an image for its text-only model, as OpenAI's would.
  server = await startOpenAIServer(() => ({ text: "ok" }), { textOnlyModels: ["text-model"] });
  chat = makeChat(server, {
    settings: { defaultMode: "chat" },
    files: { "Фото/закат.png": pngImage(64, 48) },
    knownModels: ["test-model", "vision-model", "text-model", "silent-model"],
    listedImageInput: { "test-model": true, "vision-model": true, "text-model": false },
  });
});
afterEach(async () => {
  await chat.dispose();
  await server.close();
});

async function askWith(model: string): Promise<{ images: number; notices: readonly { text: string; case?: AnswerNotice }[] }> {
  const before = server.requests.length;
  chat.controller.setModel(model);
  chat.controller.addChip(imageChip("Фото/закат.png"));
  await chat.controller.send("Что на фото?");
  const answer = chat.controller.getState().messages.at(-1);
  const request = server.requests[before];
  return { images: request ? openAIImages(request.body.messages).length : -1, notices: answer?.role === "assistant" ? (answer.notices ?? []) : [] };
}

describe("images by what the server's list says", () => {
  it("fill in the default model's setting, go to listed models that take them, and are left out for the others, saying so", async () => {
    expect(knownToTakeImages(chat.settings, "test-model")).toBeNull();
    await chat.services.listModels();
    expect(knownToTakeImages(chat.settings, "test-model")).toBe(true);
    expect(await askWith("test-model")).toEqual({ images: 1, notices: [] });
    expect(await askWith("vision-model")).toEqual({ images: 1, notices: [] });
    const textOnly = await askWith("text-model");
    expect(textOnly.images).toBe(0);
    expect(textOnly.notices[0]?.text).toContain("The image закат.png was left out: text-model is not known to take images.");
    expect(textOnly.notices[0]?.case).toEqual({ code: "images-left-out", model: "text-model", names: ["закат.png"] });
    expect((await askWith("silent-model")).images).toBe(0);
    expect(chat.controller.getState().messages.filter((message) => message.role === "assistant").map((message) => message.role === "assistant" && message.status)).toEqual(["done", "done", "done", "done"]);
  });
});
