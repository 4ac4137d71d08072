import { readImageHeader } from "../../src/chat/images/imageHeader";

/**
 * What a provider's server says of an image it was sent, as the real APIs check them: base64 that
 * decodes, a type they take, and bytes that are what the type says. Null for a good image.
 */
export function imageProblem(mimeType: unknown, data: unknown): string | null {
  if (typeof mimeType !== "string" || !["image/png", "image/jpeg", "image/webp", "image/gif"].includes(mimeType)) return `unsupported image type ${String(mimeType)}`;
  if (typeof data !== "string" || data === "" || !/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data.length % 4 !== 0) return "the image data is not base64";
  const header = readImageHeader(Buffer.from(data, "base64"));
  if (!header) return "the image data is not an image";
  if (header.mimeType !== mimeType) return `the image was sent as ${mimeType} but is ${header.mimeType}`;
  return null;
}

/** The images of an OpenAI-style message list (`image_url` parts with data URLs), with the problem of each. */
export function openAIImages(messages: ReadonlyArray<{ content: unknown }>): Array<{ mimeType: string; data: string; problem: string | null }> {
  return messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as Array<{ type?: string; image_url?: { url?: string } }>)
          .filter((part) => part.type === "image_url")
          .map((part) => {
            const match = /^data:([^;,]+);base64,(.*)$/s.exec(part.image_url?.url ?? "");
            const mimeType = match?.[1] ?? "";
            const data = match?.[2] ?? "";
            return { mimeType, data, problem: match ? imageProblem(mimeType, data) : "only data URLs are taken here" };
          })
      : [],
  );
}
