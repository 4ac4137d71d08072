/**
 * Anything thrown becomes text through `errorMessage` (src/errorMessage.ts): an Error's message, a
 * string as it is, anything else as JSON. Written by hand, the same turn gives "undefined" for a
 * thrown string or "[object Object]" for a thrown object, in a message the user or the model reads.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const source = join(__dirname, "../../src");
/** Every source file under src/, tests left out. */
const files = readdirSync(source, { recursive: true, encoding: "utf8" }).filter((path) => /\.tsx?$/.test(path) && !/\.test\.tsx?$/.test(path));

/** The hand-written forms: `x instanceof Error ? x.message : String(x)`, `(x as Error).message`. */
const BY_HAND = [/instanceof Error \? \(?\w+\.message/, /\(\w+ as Error\)\.message/];

describe("error messages", () => {
  it("turn whatever was thrown into text through errorMessage, never by hand", () => {
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.flatMap((file) =>
      readFileSync(join(source, file), "utf8")
        .split("\n")
        .flatMap((line, index) => (BY_HAND.some((pattern) => pattern.test(line)) ? [`src/${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });
});
