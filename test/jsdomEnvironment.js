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
    // jsdom's Blob (and so File) lacks arrayBuffer(), which browsers have; read it the way jsdom can.
    const { Blob, FileReader } = this.global;
    if (Blob && !Blob.prototype.arrayBuffer) {
      Blob.prototype.arrayBuffer = function arrayBuffer() {
        return new Promise((resolve, reject) => {
          const reader = new FileReader();
          reader.onload = () => resolve(reader.result);
          reader.onerror = () => reject(reader.error);
          reader.readAsArrayBuffer(this);
        });
      };
    }
  }
}
module.exports = JsdomWithWebGlobals;
