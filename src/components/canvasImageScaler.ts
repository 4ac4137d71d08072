import type { ImageLimits, ImageScaler, ScaledImage } from "../ports/imageScaler";

/** How much smaller each try is when an image encoded at a size is still over the byte limit. */
const SHRINK = 0.75;
const TRIES = 6;
/** JPEG quality for photos: far below it artefacts show, above it the bytes grow for nothing a model sees. */
const JPEG_QUALITY = 0.85;

/**
 * Scales an image down with the window's own decoder and a canvas, on desktop and on phones alike:
 * `createImageBitmap` (which applies the photo's EXIF orientation), drawn at the largest size
 * within the longest-side limit, then encoded as PNG (for a PNG, GIF or WebP, which may have
 * transparency) or JPEG; while the bytes are still over the limit, smaller (and a PNG that stays
 * too large as JPEG on white). Null when the image cannot be decoded or brought under the limits.
 */
export function canvasImageScaler(): ImageScaler {
  return {
    async scale(bytes, mimeType, limits, signal) {
      let bitmap: ImageBitmap;
      try {
        bitmap = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: mimeType }));
      } catch {
        return null;
      }
      try {
        return await encodeWithin(bitmap, mimeType === "image/jpeg" ? "image/jpeg" : "image/png", limits, signal);
      } finally {
        bitmap.close();
      }
    },
  };
}

async function encodeWithin(bitmap: ImageBitmap, preferred: "image/png" | "image/jpeg", limits: ImageLimits, signal?: AbortSignal): Promise<ScaledImage | null> {
  let scale = Math.min(1, limits.maxSide / Math.max(bitmap.width, bitmap.height));
  let type = preferred;
  for (let attempt = 0; attempt < TRIES; attempt++) {
    signal?.throwIfAborted();
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const encoded = await draw(bitmap, width, height, type);
    if (encoded && encoded.byteLength <= limits.maxBytes) return { bytes: encoded, mimeType: type, width, height };
    // A PNG too large is a photo in PNG's clothes: JPEG first, then smaller.
    if (type === "image/png") type = "image/jpeg";
    else scale *= SHRINK;
  }
  return null;
}

async function draw(bitmap: ImageBitmap, width: number, height: number, type: "image/png" | "image/jpeg"): Promise<Uint8Array | null> {
  const canvas = typeof OffscreenCanvas === "function" ? new OffscreenCanvas(width, height) : Object.assign(createEl("canvas"), { width, height });
  const context = canvas.getContext("2d");
  if (!context) return null;
  if (type === "image/jpeg") {
    // JPEG has no transparency: what was transparent becomes white, not black.
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, width, height);
  }
  context.imageSmoothingQuality = "high";
  context.drawImage(bitmap, 0, 0, width, height);
  const quality = type === "image/jpeg" ? JPEG_QUALITY : undefined;
  const blob =
    canvas instanceof HTMLCanvasElement
      ? await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, quality))
      : await canvas.convertToBlob({ type, ...(quality !== undefined ? { quality } : {}) });
  return blob ? new Uint8Array(await blob.arrayBuffer()) : null;
}
