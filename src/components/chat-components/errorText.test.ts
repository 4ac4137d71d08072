import { classifyModelError, type ModelErrorContext } from "../../net/modelErrors";
import { capitalized, shownError } from "./errorText";

/** The sentences the chat shows come from the model errors' own wording: each case builds one the way a failed request does. */
const CONTEXT: ModelErrorContext = { providerName: "OpenAI", baseUrl: "http://127.0.0.1:9/v1", model: "gpt-test", unreachableHint: "Is the server running?", receivedAnything: false };
const httpError = (status: number, message: string) => Object.assign(new Error(`${status} ${message}`), { status, error: { message } });

describe("an error as the chat shows it", () => {
  it.each([
    [401, "Incorrect API key provided: sk-abc***xyz", "OpenAI (http://127.0.0.1:9/v1) refused the API key. Check the API key in the settings."],
    [404, "The model `gpt-test` does not exist (see the list)", 'OpenAI (http://127.0.0.1:9/v1) has no model "gpt-test". Check the model name.'],
    [500, "Внутренняя ошибка сервера", "OpenAI (http://127.0.0.1:9/v1) failed to answer."],
    [400, "messages[0].content: 不能为空", "OpenAI (http://127.0.0.1:9/v1) rejected the request."],
  ])("HTTP %i: our sentence first, the server's own words apart", (status, serverWords, sentence) => {
    const shown = shownError(classifyModelError(httpError(status, serverWords), CONTEXT).message);
    expect(shown).toEqual({ text: sentence, raw: `HTTP ${status}: ${serverWords}` });
  });

  it("keeps a request that failed otherwise apart from what the client said", () => {
    const shown = shownError(classifyModelError(new Error("socket hang up: ⚠️ unexpected"), CONTEXT).message);
    expect(shown).toEqual({ text: "The request to OpenAI (http://127.0.0.1:9/v1) failed.", raw: "socket hang up: ⚠️ unexpected" });
  });

  it("leaves a sentence with nothing of the provider's whole, and starts any with a capital", () => {
    const unreachable = classifyModelError(Object.assign(new Error("connect"), { code: "ECONNREFUSED" }), CONTEXT).message;
    expect(shownError(unreachable)).toEqual({ text: unreachable });
    expect(shownError("the vault search failed")).toEqual({ text: "The vault search failed" });
    expect(capitalized("éclair")).toBe("Éclair");
    expect(capitalized("😀 fine")).toBe("😀 fine");
    expect(capitalized("中文")).toBe("中文");
  });
});
