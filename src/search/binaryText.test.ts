import { decodeBase64, encodeBase64, VarintReader, VarintWriter } from "./binaryText";

describe("binary text", () => {
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

  it("round-trips unsigned 32-bit numbers as varints and refuses a cut-off one", () => {
    const values = [0, 1, 127, 128, 300, 16_383, 16_384, 2 ** 31, 2 ** 32 - 1];
    const writer = new VarintWriter();
    for (const value of values) writer.write(value);
    const bytes = writer.take();
    const reader = new VarintReader(bytes);
    expect(values.map(() => reader.read())).toEqual(values);
    expect(reader.done).toBe(true);
    const cut = new VarintReader(Uint8Array.from([0x80, 0x80]));
    expect(() => cut.read()).toThrow(RangeError);
  });
});
