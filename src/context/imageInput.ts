/** The image types every provider takes as input (OpenAI, Anthropic and Gemini alike). */
export const IMAGE_MIME_TYPES = ["image/png", "image/jpeg", "image/webp", "image/gif"] as const;
export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];

/** An image sent to the model with a message, ready for the wire. */
export interface ImageInput {
  /** The file's name, as the user knows it ("photo.png"). */
  name: string;
  /** The vault path it was read from; absent for an image pasted or dropped from outside the vault. */
  source?: string;
  mimeType: ImageMimeType;
  width: number;
  height: number;
  /** Size of the bytes sent. */
  bytes: number;
  /** The bytes, base64. */
  data: string;
}

/** An image as the payload view and the logs name it: never its bytes. */
export type ImageDescription = Omit<ImageInput, "data">;

/** "[image photo.png 1024×768, 180 KB]": how an image stands in the payload view and beside the image for the model. */
export function describeImage(image: ImageDescription): string {
  return `[image ${image.name} ${image.width}×${image.height}, ${formatBytes(image.bytes)}]`;
}

/** The image without its bytes (an image already without them comes back as it is). */
export function withoutData(image: ImageDescription & { data?: string }): ImageDescription {
  const { data: _data, ...description } = image;
  return description;
}

/** "180 KB", "1.4 MB" (1 KB = 1000 bytes, as file managers count). */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** The image's data URL (OpenAI-compatible servers take images so). */
export function imageDataUrl(image: Pick<ImageInput, "mimeType" | "data">): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

/** The type and base64 of a `data:image/…;base64,…` URL, or null for any other URL. */
export function parseImageDataUrl(url: string): { mimeType: string; data: string } | null {
  const match = /^data:(image\/[\w.+-]+);base64,(.*)$/s.exec(url);
  return match ? { mimeType: match[1] ?? "", data: match[2] ?? "" } : null;
}

/** The tokens an image costs, estimated as Anthropic counts them (width × height / 750): errs high for the others. */
export function estimateImageTokens(image: Pick<ImageInput, "width" | "height">): number {
  return Math.ceil((image.width * image.height) / 750);
}
