/**
 * `--attach ITEM` and `--no-images` on chat, qa, agent and run (in-process, the real command
 * table): notes with the images they embed, images, and web pages served on 127.0.0.1, each read
 * as the view's chips are, against the scripted server of each wire format, which refuses a bad
 * image as the real APIs do. A missing or refused item ends with exit 1 and one line, and nothing
 * is sent.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { formatBytes } from "../../src/context/imageInput";
import { join } from "node:path";
import { startAnthropicServer } from "../helpers/anthropicServer";
import { startGeminiServer } from "../helpers/geminiServer";
import { jpegImage, pngImage, webpImage } from "../helpers/imageFiles";
import { openAIImages } from "../helpers/imageWireChecks";
import type { LocalServer } from "../helpers/localServer";
import { startOpenAIServer, type OpenAIServer } from "../helpers/openAIServer";
import { runCli } from "../helpers/runCli";
import { makeTempVault, type TempVault } from "../helpers/tempVault";
import { startWebPageServer } from "../helpers/webPageServer";

jest.setTimeout(60_000);

const PHOTO = pngImage(800, 600);
const CHART = jpegImage(640, 480);
const PLAN = webpImage(320, 200);
const TRIP_NOTE = "# Поездка в Тбилиси\n\nФото: ![[фото.png]]\n\nГрафик: ![](img/график%201.jpg)\n\nЧертёж: ![[чертёж.webp]]\n\nЖили у Нино, 🍇 каждый день.\n";
const PAGE = "/news/2026/tidal-lagoon.html";

let vault: TempVault;
let pages: LocalServer;
let close: Array<() => Promise<void>> = [];

beforeAll(async () => {
  pages = await startWebPageServer();
});
afterAll(() => pages.close());
beforeEach(() => {
  vault = makeTempVault({
    "Поездки/Тбилиси.md": TRIP_NOTE,
    "Поездки/фото.png": PHOTO,
    "Поездки/img/график 1.jpg": CHART,
    "Assets/чертёж.webp": PLAN,
    "Assets/огромное.png": pngImage(2000, 1000),
    "Notes/With a huge picture.md": "Плакат: ![[огромное.png]]\n\nТекст заметки остаётся.\n",
    "copilot/prompts/Summarize.md": "---\ndescription: Summarize\n---\nSummarize what is attached.\n",
  });
});
afterEach(async () => {
  for (const stop of close.splice(0)) await stop();
  vault.remove();
});

async function openAI(options: Parameters<typeof startOpenAIServer>[1] = {}): Promise<OpenAIServer> {
  const server = await startOpenAIServer(() => ({ text: "Готово." }), options);
  close.push(() => server.close());
  return server;
}

const modelFlags = (server: { baseUrl: string }) => ["--vault", vault.root, "--base-url", server.baseUrl, "--model", "vision-model"];
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
const lastUserContent = (server: OpenAIServer) => server.requests.at(-1)!.body.messages.filter((message) => message.role === "user").at(-1)!.content as Array<{ type: string; text?: string; image_url?: { url: string } }>;
const textOf = (content: unknown) => (typeof content === "string" ? content : (content as Array<{ type: string; text?: string }>).filter((part) => part.type === "text").map((part) => part.text).join("\n"));

describe("--attach", () => {
  it("chat: a note goes with the images it embeds as image_url parts, a page as its article, the question last", async () => {
    const server = await openAI();
    const result = await runCli(["chat", ...modelFlags(server), "--attach", "Поездки/Тбилиси.md", "--attach", `${pages.url}${PAGE}`, "Что на фото?"]);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Готово.");
    const content = lastUserContent(server);
    expect(openAIImages([{ content }])).toEqual([
      { mimeType: "image/png", data: base64(PHOTO), problem: null },
      { mimeType: "image/jpeg", data: base64(CHART), problem: null },
      { mimeType: "image/webp", data: base64(PLAN), problem: null },
    ]);
    // Each image after the line that names it; the text, with the question last, after them all.
    expect(content.map((part) => (part.type === "text" ? (part.text ?? "") : "IMAGE")).slice(0, 6)).toEqual([
      `[image фото.png 800×600, ${formatBytes(PHOTO.length)}]`,
      "IMAGE",
      `[image график 1.jpg 640×480, ${formatBytes(CHART.length)}]`,
      "IMAGE",
      `[image чертёж.webp 320×200, ${formatBytes(PLAN.length)}]`,
      "IMAGE",
    ]);
    expect(content).toHaveLength(7);
    const text = content.at(-1)!.text ?? "";
    expect(text).toContain("Жили у Нино, 🍇 каждый день.");
    expect(text).toContain("took nineteen days");
    expect(text).toContain("third-party material");
    expect(text).not.toMatch(/We use cookies|dataLayer|All rights reserved/);
    expect(text.endsWith("[User query]: Что на фото?")).toBe(true);
  });

  it("chat: an image attached by itself goes as one image part, found by a name typed in the other Unicode form", async () => {
    const server = await openAI();
    const decomposed = "Assets/чертёж.webp".normalize("NFD");
    expect(decomposed).not.toBe("Assets/чертёж.webp");
    const result = await runCli(["chat", ...modelFlags(server), "--attach", decomposed, "What is drawn?"]);
    expect(result.status).toBe(0);
    expect(openAIImages(server.requests[0]!.body.messages)).toEqual([{ mimeType: "image/webp", data: base64(PLAN), problem: null }]);
  });

  it("anthropic: images go as base64 image blocks, which its scripted server checks", async () => {
    const server = await startAnthropicServer([{ text: "Готово." }]);
    close.push(() => server.close());
    const result = await runCli(["chat", "--provider", "anthropic", ...modelFlags(server), "--api-key-env", "KEY", "--attach", "Поездки/Тбилиси.md", "Что на фото?"], { KEY: "anthropic-key-0123456789" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const blocks = server.requests[0]!.body.messages.at(-1)!.content;
    const images = blocks.filter((block) => block.type === "image");
    expect(images).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: base64(PHOTO) } },
      { type: "image", source: { type: "base64", media_type: "image/jpeg", data: base64(CHART) } },
      { type: "image", source: { type: "base64", media_type: "image/webp", data: base64(PLAN) } },
    ]);
    expect(blocks.at(-1)).toMatchObject({ type: "text" });
    expect(String(blocks.at(-1)!.text)).toMatch(/\[User query\]: Что на фото\?$/);
  });

  it("gemini: images go as inline_data parts, which its scripted server checks", async () => {
    const server = await startGeminiServer([{ text: "Готово." }]);
    close.push(() => server.close());
    const result = await runCli(["chat", "--provider", "gemini", ...modelFlags(server), "--api-key-env", "KEY", "--attach", "Поездки/фото.png", "Что на фото?"], { KEY: "gemini-key-0123456789" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const parts = server.requests[0]!.body.contents.at(-1)!.parts;
    expect(parts.filter((part) => "inline_data" in part)).toEqual([{ inline_data: { mime_type: "image/png", data: base64(PHOTO) } }]);
    expect(String(parts.at(-1)!.text)).toMatch(/\[User query\]: Что на фото\?$/);
  });

  it("--no-images sends the text only and names each image left out on stderr", async () => {
    const server = await openAI();
    const result = await runCli(["chat", ...modelFlags(server), "--no-images", "--attach", "Поездки/Тбилиси.md", "--attach", "Assets/чертёж.webp", "Что на фото?"]);
    expect(result.status).toBe(0);
    expect(openAIImages(server.requests[0]!.body.messages)).toEqual([]);
    expect(result.stderr.trim().split("\n").sort()).toEqual([
      "vault-copilot: Поездки/img/график 1.jpg: not sent (--no-images)",
      "vault-copilot: Поездки/фото.png: not sent (--no-images)",
      "vault-copilot: Assets/чертёж.webp: not sent (--no-images)",
    ].sort());
    expect(textOf(server.requests[0]!.body.messages.at(-1)!.content)).toContain("Жили у Нино");
  });

  it("a model the vault's settings say takes no images gets none, and the chat says so (no 400 from its server)", async () => {
    const server = await openAI({ textOnlyModels: ["vision-model"] });
    const key = `custom ${server.baseUrl} vision-model`;
    mkdirSync(join(vault.root, ".obsidian/plugins/vault-copilot"), { recursive: true });
    writeFileSync(join(vault.root, ".obsidian/plugins/vault-copilot/data.json"), JSON.stringify({ modelImageSupport: { [key]: false } }));
    const result = await runCli(["chat", ...modelFlags(server), "--attach", "Поездки/фото.png", "Что на фото?"]);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe("vault-copilot: The image фото.png was left out: vision-model is not known to take images. If it does, switch on “Takes images” for it in Settings → Vault Copilot → Model provider.\n");
    expect(openAIImages(server.requests[0]!.body.messages)).toEqual([]);
  });

  it("an image too large to send from the command line: attached, it ends the command; embedded in a note, it is named and the note goes", async () => {
    const server = await openAI();
    const attached = await runCli(["chat", ...modelFlags(server), "--attach", "Assets/огромное.png", "Что это?"]);
    expect(attached.status).toBe(1);
    expect(attached.stderr).toBe(
      "vault-copilot: --attach: огромное.png (2000×1000, 8 KB) is larger than 1568 px on its longest side and 1.5 MB, and images are not scaled down here: scale it down to send it\n",
    );
    expect(server.requests).toHaveLength(0);
    const embedded = await runCli(["chat", ...modelFlags(server), "--attach", "Notes/With a huge picture.md", "Что это?"]);
    expect(embedded.status).toBe(0);
    expect(embedded.stderr).toContain("огромное.png (2000×1000, 8 KB) is larger than 1568 px");
    expect(textOf(server.requests[0]!.body.messages.at(-1)!.content)).toContain("Текст заметки остаётся.");
  });

  it.each([
    ["a note that is not there", "Нет такой заметки.md", 'vault-copilot: --attach: no file at "Нет такой заметки.md" in the vault'],
    ["a path out of the vault", "../outside.png", 'vault-copilot: --attach: "../outside.png" was refused'],
    ["the config folder", ".obsidian/app.json", 'vault-copilot: --attach: ".obsidian/app.json" was refused'],
    ["another scheme", "ftp://example.org/file.txt", 'vault-copilot: --attach: only http and https addresses can be attached, not "ftp://example.org/file.txt"'],
    ["a page that is not there", "PAGES/missing.html", "vault-copilot: --attach: PAGES/missing.html answered HTTP 404: there is no page at that address."],
  ])("%s ends the command with exit 1 and one line, and nothing is sent or saved", async (_name, item, line) => {
    const server = await openAI();
    const target = item.replace("PAGES", pages.url);
    const result = await runCli(["chat", ...modelFlags(server), "--save", "--attach", "Поездки/Тбилиси.md", "--attach", target, "Вопрос"]);
    expect(result.status).toBe(1);
    expect(result.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    expect(result.stderr).toContain(line.replace("PAGES", pages.url));
    expect(result.stdout).toBe("");
    expect(server.requests).toHaveLength(0);
    expect(existsSync(join(vault.root, "copilot/chats"))).toBe(false);
  });

  it("a page is not fetched when the vault's settings switch reading web pages off: exit 1, saying where to switch it on", async () => {
    const server = await openAI();
    mkdirSync(join(vault.root, ".obsidian/plugins/vault-copilot"), { recursive: true });
    writeFileSync(join(vault.root, ".obsidian/plugins/vault-copilot/data.json"), JSON.stringify({ webPages: { enabled: false, maxCharacters: 40000 } }));
    pages.requests.length = 0;
    const result = await runCli(["chat", ...modelFlags(server), "--attach", `${pages.url}${PAGE}`, "Вопрос"]);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`vault-copilot: --attach: ${pages.url}${PAGE} was not attached: reading web pages is switched off (Settings → Vault Copilot → Web pages).\n`);
    expect(pages.requests).toHaveLength(0);
    expect(server.requests).toHaveLength(0);
  });

  it("qa: the attached page and image go with the notes the search found", async () => {
    const server = await openAI();
    const result = await runCli(["qa", ...modelFlags(server), "--attach", `${pages.url}${PAGE}`, "--attach", "Поездки/фото.png", "Где жили в Тбилиси?"]);
    expect(result.status).toBe(0);
    const content = server.requests[0]!.body.messages.at(-1)!.content;
    expect(textOf(content)).toContain("took nineteen days");
    expect(textOf(content)).toContain("<localSearch>");
    expect(openAIImages(server.requests[0]!.body.messages)).toHaveLength(1);
  });

  it("agent: the attachments are this turn's context, and a page the user attached may sit on 127.0.0.1 (the private-address rule is for the model's URLs)", async () => {
    const server = await openAI();
    const result = await runCli(["agent", ...modelFlags(server), "--tools", "readNote", "--attach", `${pages.url}/blog/zakvaska.html`, "--attach", "Assets/чертёж.webp", "О чём страница?"]);
    expect(result.status).toBe(0);
    expect(textOf(server.requests[0]!.body.messages.at(-1)!.content)).toContain("Ёжик в банке");
    expect(openAIImages(server.requests[0]!.body.messages)).toHaveLength(1);
  });

  it("run: a prompt note's message carries the attachments too", async () => {
    const server = await openAI();
    const result = await runCli(["run", ...modelFlags(server), "--prompt", "Summarize", "--attach", "Поездки/Тбилиси.md"]);
    expect(result.status).toBe(0);
    const content = server.requests[0]!.body.messages.at(-1)!.content;
    expect(textOf(content)).toContain("Summarize what is attached.");
    expect(textOf(content)).toContain("Жили у Нино");
    expect(openAIImages(server.requests[0]!.body.messages)).toHaveLength(3);
  });
});
