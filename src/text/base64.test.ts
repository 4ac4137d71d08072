import { decodeBase64, encodeBase64 } from "./base64";

describe("base64", () => {
  it("round-trips bytes of every length through base64, as the platform encodes them", () => {
    for (let length = 0; length < 20; length++) {
      const bytes = Uint8Array.from({ length }, (_, index) => (index * 37 + length) & 255);
      const text = encodeBase64(bytes);
      expect(text).toBe(Buffer.from(bytes).toString("base64"));
      expect(decodeBase64(text)).toEqual(bytes);
    }
  });

  it("refuses base64 with a foreign character or a bad length", () => {
    expect(() => decodeBase64("ab!d")).toThrow(RangeError);
    expect(() => decodeBase64("abc")).toThrow(RangeError);
    expect(() => decodeBase64("a=bc")).toThrow(RangeError);
    expect(() => decodeBase64("abc\u00e9")).toThrow(RangeError);
  });
});
