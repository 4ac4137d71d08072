/** How far an image may be from what is sent: its longest side and its encoded size. */
export interface ImageLimits {
  maxSide: number;
  maxBytes: number;
}

/** An image encoded again, smaller. */
export interface ScaledImage {
  bytes: Uint8Array;
  mimeType: "image/png" | "image/jpeg" | "image/webp";
  width: number;
  height: number;
}

/**
 * Scales an image down to the limits (the plugin's uses the window's createImageBitmap and a
 * canvas). Null when this platform cannot decode the image or cannot bring it under the limits.
 * The CLI has none: larger images are left out there, and it says so.
 */
export interface ImageScaler {
  scale(bytes: Uint8Array, mimeType: string, limits: ImageLimits, signal?: AbortSignal): Promise<ScaledImage | null>;
}
