import fc from "fast-check";
import { redactSecrets } from "./secrets";
import { keyRunsLeft } from "../../test/secrets/leakedRuns";
import { SECRET_RUN_LENGTH, secretRedactor } from "./secretRedactor";

/**
 * The shared redaction (CLI output, the request debug view, saved chats): a key leaks cut short,
 * re-cased, base64- or percent-encoded as easily as whole, and none of those may print.
 */

const KEY_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const key = fc.string({ unit: fc.constantFrom(...KEY_ALPHABET), minLength: 20, maxLength: 64 });
/** Keys whose base64 is full of "+" and "/" ("?" and "~" encode to them), where base64url differs. */
const encodingKey = fc.string({ unit: fc.constantFrom(...KEY_ALPHABET, "?", "~", ">", "ü", "€"), minLength: 20, maxLength: 64 });
/** Text around a key in scripts a key never uses, so it cannot lengthen a match by chance. */
const prose = fc.string({ unit: fc.constantFrom(..."Плагины поиск 検索プラグイン ค้นหา بحث ελληνικά 🦓 \n"), maxLength: 30 });

/**
 * The longest run of `secret`'s bytes that decoding any stretch of base64 (or base64url) in
 * `text` gives back, trying every alignment: what someone could recover from the output.
 */
function longestDecodedRun(text: string, secret: string): number {
  const secretBytes = Buffer.from(secret);
  let longest = 0;
  for (const stretch of text.match(/[A-Za-z0-9+/_-]+/g) ?? []) {
    for (let offset = 0; offset < 4; offset++) {
      const decoded = Buffer.from(stretch.slice(offset).replace(/-/g, "+").replace(/_/g, "/"), "base64");
      longest = Math.max(longest, longestCommonRun(decoded, secretBytes));
    }
  }
  return longest;
}

function longestCommonRun(a: Uint8Array, b: Uint8Array): number {
  let longest = 0;
  for (let i = 0; i < a.length; i++) {
    for (let j = 0; j < b.length; j++) {
      let length = 0;
      while (i + length < a.length && j + length < b.length && a[i + length] === b[j + length]) length++;
      longest = Math.max(longest, length);
    }
  }
  return longest;
}

const recase = (text: string, how: number) => (how === 0 ? text.toUpperCase() : how === 1 ? text.toLowerCase() : [...text].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join(""));

describe("secretRedactor", () => {
  it("redacts every run of 12 or more of a key's characters, in any letter case, wherever it sits", () => {
    fc.assert(
      fc.property(key, fc.nat(), fc.nat(), fc.integer({ min: 0, max: 3 }), prose, prose, (secret, startSeed, lengthSeed, how, before, after) => {
        const start = startSeed % (secret.length - SECRET_RUN_LENGTH + 1);
        const end = start + SECRET_RUN_LENGTH + (lengthSeed % (secret.length - start - SECRET_RUN_LENGTH + 1));
        const piece = how === 3 ? secret.slice(start, end) : recase(secret.slice(start, end), how);
        const redacted = redactSecrets(`${before}${piece}${after}`, [secret]);
        expect(keyRunsLeft(redacted, secret)).toEqual([]);
        // What is not the key stays as it was.
        expect(redacted).toBe(`${before}[redacted]${after}`);
      }),
      { numRuns: 300 },
    );
  });

  it("leaves a run shorter than 12 characters as it is, and matches a short key only whole and exact", () => {
    const secret = "sk-live-9f2Qd81ZaB";
    const text = `Префикс ${secret.slice(0, SECRET_RUN_LENGTH - 1)} — ${secret.slice(-(SECRET_RUN_LENGTH - 1))}`;
    expect(redactSecrets(text, [secret])).toBe(text);
    // A local server's key such as "ollama" must not blank out the word in every answer.
    expect(redactSecrets("Ollama serves the model; the key is ollama.", ["ollama"])).toBe("Ollama serves the model; the key is [redacted].");
    expect(redactSecrets("a 1 true", ["a", "1", "true"])).toBe("a 1 [redacted]");
  });

  it("redacts a key's base64 and base64url forms at any alignment, so decoding the output gives back no 9 of its bytes", () => {
    fc.assert(
      fc.property(encodingKey, fc.string({ maxLength: 7 }), fc.string({ maxLength: 7 }), fc.boolean(), (secret, before, after, urlSafe) => {
        const encoded = Buffer.from(`${before}${secret}${after}`).toString(urlSafe ? "base64url" : "base64");
        const redacted = redactSecrets(`Authorization: Basic ${encoded}\n`, [secret]);
        expect(redacted).toContain("[redacted]");
        // 12 base64 characters carry 9 bytes: a recoverable run that long would be a match.
        expect(longestDecodedRun(redacted, secret)).toBeLessThan((SECRET_RUN_LENGTH * 6) / 8);
      }),
      { numRuns: 300 },
    );
  });

  it("redacts a key percent-encoded in a URL, in either case of its hex digits", () => {
    const secret = "k+Zm/9Qa=Pw8&Lt3Xr5$Vn";
    for (const encoded of [encodeURIComponent(secret), encodeURIComponent(secret).toLowerCase()]) {
      const redacted = redactSecrets(`GET https://example.org/search?q=notes&key=${encoded}&page=2`, [secret]);
      expect(redacted).toBe("GET https://example.org/search?q=notes&key=[redacted]&page=2");
    }
  });

  it("redacts both of two occurrences of a key, also when they touch", () => {
    const secret = "sk-ant-api03-Xq81LmZ0pR7t";
    expect(redactSecrets(`первый ${secret}, второй ${secret}.`, [secret])).toBe("первый [redacted], второй [redacted].");
    expect(redactSecrets(`${secret}${secret}`, [secret])).toBe("[redacted][redacted]");
    expect(redactSecrets(`${secret.toUpperCase()} / ${secret.slice(3)}`, [secret])).toBe("[redacted] / [redacted]");
  });

  it("redacts overlapping keys whole, in either order: one the start of the other, one inside the other", () => {
    const short = "sk-proj-7Hq2Lw9Zx4Kd";
    // What the longer key adds is shorter than a run: replacing the short key first would leave it.
    const long = `${short}-Vm3Rt8Yp`;
    const inner = long.slice(4, 24);
    for (const secrets of [
      [short, long],
      [long, short],
      [inner, long],
      [long, inner],
    ]) {
      expect(redactSecrets(`a ${long} b ${short} c ${inner} d`, secrets)).toBe("a [redacted] b [redacted] c [redacted] d");
    }
    // Two short keys, one the start of the other, matched whole and exact.
    expect(redactSecrets("x abcdef y abcdefgh z", ["abcdef", "abcdefgh"])).toBe("x [redacted] y [redacted] z");
    expect(redactSecrets("x abcdef y abcdefgh z", ["abcdefgh", "abcdef"])).toBe("x [redacted] y [redacted] z");
  });

  it("holds back only a tail that may begin or continue a key's run, and never past a line break", () => {
    const redactor = secretRedactor(["sk-planted-abcdef012345"]);
    expect(redactor.heldTailLength("The key is sk-pl")).toBe("sk-pl".length);
    expect(redactor.heldTailLength("The key is SK-PLANTED-ABC")).toBe("SK-PLANTED-ABC".length);
    // Any part of a long key may start a run of 12.
    expect(redactor.heldTailLength("partial ted-ab")).toBe("ted-ab".length);
    expect(redactor.heldTailLength("nothing here!")).toBe(0);
    expect(redactor.heldTailLength("sk-planted\n")).toBe(0);
    expect(redactor.heldTailLength("sk-plan\nted-ab")).toBe("ted-ab".length);
    // Only the start of a short key can begin a match.
    const short = secretRedactor(["pass1234"]);
    expect(short.heldTailLength("word pass12")).toBe("pass12".length);
    expect(short.heldTailLength("word ass12")).toBe(0);
    expect(short.heldTailLength("word pass1234")).toBe(0);
  });
});
