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
