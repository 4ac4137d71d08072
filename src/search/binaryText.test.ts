import { VarintReader, VarintWriter } from "./binaryText";

describe("binary text", () => {
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
