import { formatBytes, type ImageInput } from "../../context/imageInput";
import type { ImageLimits, ImageScaler } from "../../ports/imageScaler";
import { encodeBase64 } from "../../text/base64";
import type { ChipProblemCase } from "../chipProblems";
import { readImageHeader } from "./imageHeader";

/**
 * What an image may be when it is sent. 1568 px is the longest side Anthropic uses before it scales
 * an image down itself (OpenAI and Gemini tile or scale larger ones too), so more pixels only cost
 * upload time; 1.5 MB keeps a request with several images well under every provider's limit.
 */
export const IMAGE_LIMITS: ImageLimits = { maxSide: 1568, maxBytes: 1_500_000 };
/** The largest file read as an image at all (a photo straight from a camera is 5 to 15 MB). */
export const MAX_IMAGE_FILE_BYTES = 40 * 1024 * 1024;

/** An image made ready to send, or why it cannot go (the sentence, and its case for the view). */
export type PreparedImage = { ok: true; image: ImageInput } | { ok: false; problem: string; case: ChipProblemCase };

/**
 * An image file's bytes made ready for the model: its type and size read from its header, scaled
 * down when it is over the limits (by the platform's scaler; without one, it is left out and the
 * problem says why), then base64.
 */
export async function prepareImage(name: string, bytes: Uint8Array, options: { source?: string; scaler?: ImageScaler; signal?: AbortSignal }): Promise<PreparedImage> {
  const header = readImageHeader(bytes);
  if (!header) return { ok: false, problem: `${name} is not a PNG, JPEG, WebP or GIF image, so it was not sent`, case: { code: "not-image", name } };
  const within = Math.max(header.width, header.height) <= IMAGE_LIMITS.maxSide && bytes.byteLength <= IMAGE_LIMITS.maxBytes;
  const source = options.source !== undefined ? { source: options.source } : {};
  if (within) return { ok: true, image: { name, ...source, ...header, bytes: bytes.byteLength, data: encodeBase64(bytes) } };
  const size = `${header.width}×${header.height}, ${formatBytes(bytes.byteLength)}`;
  const limits = `${IMAGE_LIMITS.maxSide} px on its longest side and ${formatBytes(IMAGE_LIMITS.maxBytes)}`;
  const values = { name, width: header.width, height: header.height, size: formatBytes(bytes.byteLength), maxSide: IMAGE_LIMITS.maxSide, maxSize: formatBytes(IMAGE_LIMITS.maxBytes) };
  if (!options.scaler) return { ok: false, problem: `${name} (${size}) is larger than ${limits}, and images are not scaled down here: scale it down to send it`, case: { code: "image-not-scaled", ...values } };
  const scaled = await options.scaler.scale(bytes, header.mimeType, IMAGE_LIMITS, options.signal);
  if (!scaled) return { ok: false, problem: `${name} (${size}) could not be scaled down to ${limits}, so it was not sent`, case: { code: "image-scale-failed", ...values } };
  return { ok: true, image: { name, ...source, mimeType: scaled.mimeType, width: scaled.width, height: scaled.height, bytes: scaled.bytes.byteLength, data: encodeBase64(scaled.bytes) } };
}
