/**
 * Anything thrown becomes text through `errorMessage` (src/errorMessage.ts): an Error's message, a
 * string as it is, anything else as JSON. Written by hand, the same turn gives "undefined" for a
 * thrown string or "[object Object]" for a thrown object, in a message the user or the model reads.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(__dirname, "../..");
const sources = (folder: string): string[] =>
  readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });

/** The hand-written forms: `x instanceof Error ? x.message : String(x)`, `(x as Error).message`. */
const BY_HAND = [/instanceof Error \? \(?\w+\.message/, /\(\w+ as Error\)\.message/];

describe("error messages", () => {
  it("turn whatever was thrown into text through errorMessage, never by hand", () => {
    const files = sources("src");
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.flatMap((file) =>
      readFileSync(join(root, file), "utf8")
        .split("\n")
        .flatMap((line, index) => (BY_HAND.some((pattern) => pattern.test(line)) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });
});
