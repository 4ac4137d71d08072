import fc from "fast-check";
import { redactSecrets } from "../settings/secrets";
import { cliOutputFilter } from "./outputFilter";

const ESC = "\u001b";

describe("cliOutputFilter", () => {
  it("removes an escape sequence cut between two streamed pieces of a plain answer", () => {
    const filter = cliOutputFilter(["chat", "--vault", "/v", "hi"], {});
    expect([`Red ${ESC}[3`, `1mtext${ESC}`, "[0m done"].map((piece) => filter.stdout(piece)).join("")).toBe("Red text done");
  });

  it("does not let an unterminated string sequence swallow the rest of the answer", () => {
    const filter = cliOutputFilter(["chat"], {});
    const printed = [`${ESC}]0;`, "x".repeat(300), " the answer"].map((piece) => filter.stdout(piece)).join("");
    expect(printed).toContain("the answer");
    expect(printed).not.toContain(ESC);
  });

  it("redacts a key cut between streamed pieces of a plain answer, holding back only what may start it", () => {
    const filter = cliOutputFilter(["chat", "--api-key-env", "K", "hi"], { K: "sk-planted-abcdef" });
    const pieces = ["The key is sk-p", "lant", "ed-abc", "def. And sk-", "other.", "\n"];
    const printed = pieces.map((piece) => filter.stdout(piece));
    expect(printed.join("")).toBe("The key is [redacted]. And sk-other.\n");
    // Text that cannot start the key is printed at once.
    expect(printed[0]).toBe("The key is ");
  });

  it("leaves --json output's text alone but redacts the key and outside paths in it", () => {
    const filter = cliOutputFilter(["agent", "--json", "--api-key-env=K", "--vault=/v"], { K: "sk-abcdef" });
    expect(filter.stdout(`{"message":"key sk-abcdef at /etc/secret/file and /v/Note.md"}\n`)).toBe(`{"message":"key [redacted] at …/file and /v/Note.md"}\n`);
  });
});

/** What `filter.stdout` prints for `text` cut into pieces of `size` characters. */
function streamed(filter: ReturnType<typeof cliOutputFilter>, text: string, size: number): string {
  let printed = "";
  for (let at = 0; at < text.length; at += size) printed += filter.stdout(text.slice(at, at + size));
  return printed;
}

describe("cliOutputFilter: secrets in their other forms, streamed", () => {
  const KEY = "sk-proj-Qw7Lm2Zx9Kd4Hr8Tp3";
  /** A key with characters a URL must encode. */
  const URL_KEY = "k+Zm/9Qa=Pw8&Lt3Xr5$Vn";
  const basic = Buffer.from(`reader:${KEY}`).toString("base64");
  const answers: [string, string, string, string][] = [
    ["cut short", KEY, `Ключ начинается с ${KEY.slice(0, 16)}… и всё.\n`, KEY.slice(4, 16)],
    ["upper-cased", KEY, `キーは ${KEY.toUpperCase()} です。\n`, KEY.slice(4, 16)],
    ["base64 in a header", KEY, `Authorization: Basic ${basic}\n`, basic.slice(12, 24)],
    ["percent-encoded", URL_KEY, `https://example.org/?key=${encodeURIComponent(URL_KEY)}\n`, encodeURIComponent(URL_KEY).slice(4, 16)],
    ["twice", KEY, `${KEY} และ ${KEY.toLowerCase()}\n`, KEY.slice(4, 16)],
  ];

  it.each(answers)("redacts a key %s in a plain answer, however the stream cuts it", (_form, key, answer, piece) => {
    for (let size = 1; size <= 9; size++) {
      const filter = cliOutputFilter(["chat", "--api-key-env", "K", "hi"], { K: key });
      const printed = streamed(filter, answer, size);
      expect(printed).toContain("[redacted]");
      expect(printed.toLowerCase()).not.toContain(piece.toLowerCase());
      // Nothing else is lost: the line's end arrives.
      expect(printed.endsWith("\n")).toBe(true);
    }
  });

  it("prints a streamed answer as the whole answer redacted at once, wherever the pieces are cut", () => {
    const keys = [KEY, URL_KEY, "sk-ant-api03-Xq81LmZ0pR7tW2vB9nC4dF6hJ3kL"];
    const leak = fc.oneof(
      fc.constantFrom(...keys).map((key) => key),
      fc.constantFrom(...keys).map((key) => key.toUpperCase()),
      fc.tuple(fc.constantFrom(...keys), fc.nat(), fc.integer({ min: 12, max: 40 })).map(([key, start, length]) => key.slice(start % 10, (start % 10) + length)),
      fc.tuple(fc.constantFrom(...keys), fc.string({ maxLength: 5 })).map(([key, before]) => Buffer.from(`${before}${key}`).toString("base64")),
      fc.constantFrom(...keys).map((key) => encodeURIComponent(key)),
    );
    const words = fc.constantFrom("Ключ ", "キー ", "ค้นหา ", "بحث ", "🦓", " ", "\n", "=", "sk-", "Basic ");
    const answer = fc.array(fc.oneof(leak, words), { maxLength: 12 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(answer, fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 8 }), (text, sizes) => {
        const filter = cliOutputFilter(["chat", "--api-key-env", "K", "hi"], { K: keys[0] });
        for (const key of keys.slice(1)) filter.addSecret(key);
        let printed = "";
        for (let at = 0, piece = 0; at < text.length; piece++) {
          const size = sizes[piece % sizes.length] ?? 1;
          printed += filter.stdout(text.slice(at, at + size));
          at += size;
        }
        printed += filter.stdout("\n");
        expect(printed).toBe(`${redactSecrets(text, keys)}\n`);
      }),
      { numRuns: 500 },
    );
  });

  it("redacts two keys, one the start of the other, learnt at different times, however the stream cuts them", () => {
    const longer = `${KEY}-x9Vb2`;
    for (let size = 1; size <= 9; size++) {
      const filter = cliOutputFilter(["agent", "--api-key-env", "K", "hi"], { K: KEY });
      filter.addSecret(longer);
      expect(streamed(filter, `a ${longer} b ${KEY} c\n`, size)).toBe("a [redacted] b [redacted] c\n");
    }
  });
});

describe("cliOutputFilter: paths", () => {
  /** Vault paths whose folder names end in letters, marks, digits or symbols of many scripts. */
  const VAULT_PATHS = [
    "ru/Плагины/Поиск.md",
    "zh/插件/搜索.md",
    "ja/プラグイン/検索.md",
    "ko/플러그인/검색.md",
    "ar/الإضافات/بحث.md",
    "th/ปลั๊กอินที่/ค้นหา.md",
    "hi/हिंदी/खोज.md",
    "el/Πρόσθετα/Αναζήτηση.md",
    "emoji 🦓/zebra.md",
    "family 👨‍👩‍👧/note.md",
    `${"Café".normalize("NFD")}/${"Crème".normalize("NFD")}.md`,
    "notes (old)/x.md",
    "[draft]/x.md",
    "«Цитаты»/x.md",
    "2026/05/x.md",
  ];

  it("keeps vault paths of every script as they are on disk, in JSON output and on stderr", () => {
    const filter = cliOutputFilter(["similar", "--json", "--vault", "/srv/vault", "x"], {});
    for (const path of VAULT_PATHS) {
      const line = `${JSON.stringify({ note: path, similar: [{ path, score: 1 }] })}\n`;
      expect(filter.stdout(line)).toBe(line);
      expect(filter.stderr(`vault-copilot: Left "${path}" out, and ${path} too.\n`)).toBe(`vault-copilot: Left "${path}" out, and ${path} too.\n`);
      const toolResult = `${JSON.stringify({ type: "tool-call-end", resultText: `<note path="${path}">\n[[${path}]]\n</note>` })}\n`;
      expect(filter.stdout(toolResult)).toBe(toolResult);
    }
  });

  it("still shortens absolute paths outside the vault, after a space, a quote, a bracket or = in any script's sentence", () => {
    const filter = cliOutputFilter(["search", "--json", "--vault", "/srv/vault", "x"], {});
    const message = [
      "не удалось открыть /home/alice/secret/plan.md,",
      "ENOENT: no such file or directory, open '/home/alice/a.json'",
      "at load (/home/alice/lib/x.js:1:2)",
      "HOME=/home/alice [/etc/passwd] 「/etc/hosts」",
      JSON.stringify({ error: "open \"/home/alice/b.md\"", list: ["/home/alice/c.md", "/srv/vault/Заметка.md"] }),
    ].join("\n");
    expect(filter.stdout(`${message}\n`)).toBe(
      [
        "не удалось открыть …/plan.md,",
        "ENOENT: no such file or directory, open '…/a.json'",
        "at load (…/x.js:1:2)",
        "HOME=…/alice […/passwd] 「…/hosts」",
        JSON.stringify({ error: "open \"…/b.md\"", list: ["…/c.md", "/srv/vault/Заметка.md"] }),
      ].join("\n") + "\n",
    );
  });
});

describe("cliOutputFilter: terminal strings", () => {
  const BEL = "\u0007";
  const ST = `${ESC}\\`;
  const C1_ST = "\u009c";
  const cases: [string, string][] = [
    ["an OSC title ended by ST", `${ESC}]0;pwned${ST}`],
    ["an OSC hyperlink ended by ST", `${ESC}]8;;https://example.org${ST}link${ESC}]8;;${ST}`],
    ["an OSC ended by BEL", `${ESC}]2;pwned${BEL}`],
    ["a DCS ended by ST", `${ESC}P1$r0m${ST}`],
    ["an APC ended by ST", `${ESC}_Gf=100;AAAA${ST}`],
    ["a PM ended by ST", `${ESC}^private${ST}`],
    ["a SOS ended by ST", `${ESC}Xstring${ST}`],
    ["a C1 OSC ended by the C1 ST", `\u009d0;pwned${C1_ST}`],
    ["a C1 DCS ended by ESC \\", `\u0090q#0${ST}`],
  ];

  it.each(cases)("removes %s whole and prints the rest of the answer, wherever the stream cuts it", (_name, sequence) => {
    const answer = `Ответ: ${sequence}остальной текст ответа 🦓\n`;
    const expected = `Ответ: ${sequence.includes("link") ? "link" : ""}остальной текст ответа 🦓\n`;
    for (let cut = 0; cut <= answer.length; cut++) {
      for (const second of [cut, Math.min(answer.length, cut + 3)]) {
        const filter = cliOutputFilter(["chat", "hi"], {});
        const printed = [answer.slice(0, cut), answer.slice(cut, second), answer.slice(second)].map((piece) => filter.stdout(piece)).join("");
        expect(`${cut}/${second}: ${printed}`).toBe(`${cut}/${second}: ${expected}`);
      }
    }
  });
});
