import { gifImage, jpegImage, pngImage, webpHeaderOnly, webpImage } from "../../../test/helpers/imageFiles";
import { readImageHeader } from "./imageHeader";

describe("readImageHeader", () => {
  it.each([
    ["a PNG", pngImage(1024, 768), { mimeType: "image/png", width: 1024, height: 768 }],
    ["a tall PNG", pngImage(3, 4000), { mimeType: "image/png", width: 3, height: 4000 }],
    ["a baseline JPEG", jpegImage(4032, 3024), { mimeType: "image/jpeg", width: 4032, height: 3024 }],
    ["a lossless WebP", webpImage(1600, 900), { mimeType: "image/webp", width: 1600, height: 900 }],
    ["a lossy WebP's header", webpHeaderOnly("VP8 ", 640, 480), { mimeType: "image/webp", width: 640, height: 480 }],
    ["an extended WebP's header", webpHeaderOnly("VP8X", 9000, 12000), { mimeType: "image/webp", width: 9000, height: 12000 }],
    ["a GIF", gifImage(), { mimeType: "image/gif", width: 24, height: 24 }],
  ])("reads the type and size of %s", (_name, bytes, expected) => {
    expect(readImageHeader(bytes)).toEqual(expected);
  });

  it("finds a JPEG's size past the segments before its frame (JFIF, EXIF, comments)", () => {
    const plain = jpegImage(640, 480);
    const app0 = [0xff, 0xe0, 0x00, 0x10, ...Buffer.from("JFIF\0"), 1, 1, 0, 0, 1, 0, 1, 0, 0];
    const exif = [0xff, 0xe1, 0x00, 0x0a, ...Buffer.from("Exif\0\0"), 0, 0];
    const comment = [0xff, 0xfe, 0x00, 0x08, ...Buffer.from("Ёжик!")].slice(0, 10);
    const withSegments = Buffer.concat([plain.subarray(0, 2), Buffer.from([...app0, ...exif, ...comment]), plain.subarray(2)]);
    expect(readImageHeader(withSegments)).toEqual({ mimeType: "image/jpeg", width: 640, height: 480 });
  });

  it.each([
    ["text", Buffer.from("# Заметка\n\n不是图片")],
    ["an empty file", Buffer.alloc(0)],
    ["a PNG cut before its size", pngImage(10, 10).subarray(0, 18)],
    ["a JPEG with no frame before its scan", Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02, 0xff, 0xd9])],
    ["a JPEG cut short", jpegImage(10, 10).subarray(0, 30)],
    ["a RIFF that is not WebP", Buffer.from("RIFF\0\0\0\0WAVEfmt ")],
    ["a PNG of zero width", pngImage(1, 1).fill(0, 16, 20)],
  ])("says nothing of %s", (_name, bytes) => {
    expect(readImageHeader(bytes)).toBeNull();
  });
});
