/**
 * Images and web pages in the chat view: "@" offers them (an address typed after "@" is its
 * page), an image or a web address pasted, an image dropped, each a chip; what is sent carries
 * the image as an image part and the page as its article; a model not known to take images gets
 * none and the answer says so; "Show last request" names an image, never its bytes. The real
 * CopilotView in the Obsidian double, over the real runners, a scripted model and pages served
 * on 127.0.0.1 (read through DOMParser and the double's htmlToMarkdown, as the plugin reads them).
 */
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { chatViewSession } from "../../test/helpers/chatViewSession";
import { jpegImage, pngImage } from "../../test/helpers/imageFiles";
import { openAIImages } from "../../test/helpers/imageWireChecks";
import type { LocalServer } from "../../test/helpers/localServer";
import { startWebPageServer } from "../../test/helpers/webPageServer";
import { App } from "../../test/obsidian/obsidian";
import { toolSupportKey } from "../LLMProviders/modelChoice";
import { PromptPayloadModal } from "./PromptPayloadModal";

const PHOTO = pngImage(1024, 768);
const session = chatViewSession({ settings: { defaultMode: "chat" } });
let pages: LocalServer;
beforeAll(async () => {
  pages = await startWebPageServer();
});
afterAll(() => pages.close());

/** The settings that say the test's model takes images ("Takes images": Yes). */
function takingImages(baseUrl: string) {
  return { defaultMode: "chat" as const, modelImageSupport: { [toolSupportKey({ preset: "custom", baseUrl, model: "test-model" })]: true } };
}

async function openWith(options: { takesImages: boolean }) {
  const setup = await session.open([{ text: "Вижу горы." }], { files: { "Поездки/фото.png": PHOTO } });
  if (options.takesImages) Object.assign(setup.settings, takingImages(setup.settings.provider.baseUrl));
  return setup;
}

const box = () => screen.getByRole("textbox", { name: "Message" });
const chipTexts = () => within(screen.getByRole("list", { name: "Context for the next message" })).getAllByRole("listitem").map((item) => item.textContent);

async function type(text: string): Promise<void> {
  fireEvent.change(box(), { target: { value: text, selectionStart: text.length } });
}

async function send(text: string): Promise<void> {
  fireEvent.change(box(), { target: { value: text } });
  fireEvent.keyDown(box(), { key: "Enter" });
  // Reading a page (or scaling an image) comes first: a loaded machine may take a while.
  await waitFor(() => expect(session.server.requests.length).toBeGreaterThan(0), { timeout: 15_000 });
  await waitFor(() => expect(screen.getByRole("button", { name: "Send" })).toBeTruthy(), { timeout: 15_000 });
}

function clipboard(files: File[], text = "") {
  return { clipboardData: { files, getData: (type: string) => (type === "text/plain" ? text : "") } };
}

describe("images and web pages as chips", () => {
  it("an address typed after @ is offered as its page; chosen, it is a chip and the page's article goes with the message", async () => {
    await openWith({ takesImages: false });
    const url = `${pages.url}/news/2026/tidal-lagoon.html`;
    await type(`Summarize @${url}`);
    const list = await screen.findByRole("listbox", { name: "Context suggestions" });
    expect(within(list).getAllByRole("option").map((option) => option.textContent)).toEqual([`page ${url}`]);
    fireEvent.keyDown(box(), { key: "Enter" });
    await waitFor(() => expect(chipTexts()).toEqual([`${new URL(pages.url).host}/news/2026/tidal-lagoon.html×`]));
    await send(`Summarize ${url}`);
    const body = session.server.requests[0]!.rawBody;
    expect(body).toContain("took nineteen days");
    expect(body).toContain("Six turbines now run with ceramic seals.");
    expect(body).not.toContain("We use cookies");
  });

  it("an image found after @ is a chip, and goes to a model that takes images as an image part after its name", async () => {
    await openWith({ takesImages: true });
    await type("Что здесь @фото");
    const list = await screen.findByRole("listbox", { name: "Context suggestions" });
    expect(within(list).getAllByRole("option")[0]?.textContent).toBe("image Поездки/фото.png");
    fireEvent.keyDown(box(), { key: "Enter" });
    await waitFor(() => expect(chipTexts()).toEqual(["фото.png×"]));
    await send("Что здесь?");
    const messages = session.server.requests[0]!.body.messages;
    expect(openAIImages(messages)).toEqual([{ mimeType: "image/png", data: PHOTO.toString("base64"), problem: null }]);
    expect(JSON.stringify(messages)).toContain(`[image фото.png 1024×768, ${Math.round(PHOTO.length / 1000)} KB]`.replace(" 0 KB", ` ${PHOTO.length} B`));
  });

  it("a model not known to take images gets none, and the answer says which were left out and where to switch it on", async () => {
    await openWith({ takesImages: false });
    const paste = clipboard([new File([new Uint8Array(jpegImage(320, 240))], "снимок.jpg", { type: "image/jpeg" })]);
    fireEvent.paste(box(), paste);
    await waitFor(() => expect(chipTexts()).toEqual(["снимок.jpg×"]));
    await send("Что на снимке?");
    expect(openAIImages(session.server.requests[0]!.body.messages)).toEqual([]);
    const answer = await screen.findByRole("article", { name: "Copilot" });
    await waitFor(() =>
      expect(answer.textContent).toContain("The image снимок.jpg was left out: test-model is not known to take images. If it does, switch on “Takes images” for it in Settings → Vault Copilot → Model provider."),
    );
  });

  it("a pasted image is a chip whose bytes go to the model (nothing is written to the vault); a file that is not an image is refused, saying so", async () => {
    const setup = await openWith({ takesImages: true });
    const shot = pngImage(40, 30, [0, 128, 0]);
    fireEvent.paste(box(), clipboard([new File([new Uint8Array(shot)], "image.png", { type: "image/png" }), new File(["# заметка"], "заметка.md", { type: "text/markdown" })]));
    await waitFor(() => expect(chipTexts()).toEqual(["image.png×"]));
    expect(document.querySelector(".notice-container")?.textContent).toContain("заметка.md is not an image; only images can be pasted or dropped into the message");
    await send("Какого цвета?");
    expect(openAIImages(session.server.requests[0]!.body.messages)).toEqual([{ mimeType: "image/png", data: shot.toString("base64"), problem: null }]);
    // The chat's note names the pasted image; no image file was written anywhere in the vault.
    const files = await setup.services.vault.listFiles();
    expect(files.filter((path) => /\.(png|jpe?g|webp|gif)$/i.test(path))).toEqual(["Поездки/фото.png"]);
    const chatNote = files.find((path) => path.startsWith("copilot/chats/"))!;
    await waitFor(async () => expect(await setup.services.vault.read(chatNote)).toContain("- pasted image: image.png"));
  });

  it("a web address pasted into the empty box attaches its page; pasted into a sentence it stays words", async () => {
    await openWith({ takesImages: false });
    const url = `${pages.url}/blog/zakvaska.html`;
    fireEvent.paste(box(), clipboard([], url));
    await waitFor(() => expect(chipTexts()).toEqual([`${new URL(pages.url).host}/blog/zakvaska.html×`]));
    fireEvent.click(within(screen.getByRole("list", { name: "Context for the next message" })).getByRole("button", { name: /^Remove / }));
    await type("Прочитай ");
    fireEvent.paste(box(), clipboard([], url));
    expect(screen.queryByRole("list", { name: "Context for the next message" })).toBeNull();
  });

  it("an image dropped from outside the vault is a chip, and two of the same name are two chips", async () => {
    await openWith({ takesImages: true });
    const target = document.querySelector<HTMLElement>(".vault-copilot-chat")!;
    const drop = (name: string) => fireEvent.drop(target, { dataTransfer: { files: [new File([new Uint8Array(PHOTO)], name, { type: "image/png" })], types: ["Files"], getData: () => "" } });
    drop("Скриншот 2026-12-04.png");
    await waitFor(() => expect(chipTexts()).toEqual(["Скриншот 2026-12-04.png×"]));
    drop("image.png");
    drop("image.png");
    await waitFor(() => expect(chipTexts()).toEqual(["Скриншот 2026-12-04.png×", "image.png×", "image.png×"]));
  });

  it("Show last request names an image by its name, size and bytes, never its base64", async () => {
    const setup = await openWith({ takesImages: true });
    await type("@фото");
    await screen.findByRole("listbox", { name: "Context suggestions" });
    fireEvent.keyDown(box(), { key: "Enter" });
    await waitFor(() => expect(chipTexts()).toEqual(["фото.png×"]));
    await send("Что здесь?");
    const modal = new PromptPayloadModal(new App() as never, setup.recorder);
    act(() => modal.open());
    const text = modal.contentEl.textContent ?? "";
    const images = modal.contentEl.querySelector(".vault-copilot-payload-segment.is-images");
    expect(images?.firstElementChild?.textContent).toBe("Images · user message");
    expect(images?.querySelector("pre")?.textContent).toMatch(/^\[image фото\.png 1024×768, \d+ (B|KB)\]$/);
    expect(text).not.toContain(PHOTO.toString("base64").slice(0, 40));
    modal.close();
  });
});
