// jsdom lacks several web globals that LangChain and the OpenAI client use; copy Node's.
const { TestEnvironment } = require("jest-environment-jsdom");

class JsdomWithWebGlobals extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    const names = ["fetch", "Response", "Request", "Headers", "ReadableStream", "WritableStream",
      "TransformStream", "TextEncoder", "TextDecoder", "structuredClone", "AbortController",
      "AbortSignal", "TextDecoderStream", "TextEncoderStream"];
    for (const name of names) {
      if (globalThis[name] !== undefined) this.global[name] = globalThis[name];
    }
  }
}
module.exports = JsdomWithWebGlobals;
