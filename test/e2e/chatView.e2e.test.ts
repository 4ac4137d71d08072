/**
 * The chat view in the browser demo (scripts/demo.mjs), driven in headless Chromium as a user
 * would, against the scripted chat-completions server and a temporary copy of a small vault.
 * Controls are found only by role and accessible name (test/e2e/chatPage.ts). Each test opens its
 * own page, so each starts with an empty chat; notes changed on disk stay changed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { startLocalServer, type LocalServer } from "../helpers/localServer";
import { startOpenAIServer, type OpenAIServer } from "../helpers/openAIServer";
import { chooseMode, conversation, lastAnswer, sendMessage, waitUntilIdle } from "./chatPage";
import { CHAT_VIEW_SELECTOR, screenshotPath, startDemo, watchOutsideRequests } from "./demoHarness";
import { useScriptedDemo } from "./scriptedDemo";

jest.setTimeout(120_000);

const NOTES: Record<string, string> = {
  "Welcome.md": "# Welcome\n\nStart with [[Garden/Roses]].\n",
  "Garden/Roses.md": "# Roses\n\nPrune roses in early spring, just above an outward-facing bud.\n",
  "Kitchen/Soup.md": "Tomato soup: simmer tomatoes with basil for twenty minutes.\n",
  "Kitchen/Salad.md": "Green salad: lettuce, cucumber and a lemon dressing.\n",
  "Secret.md": "TRANSCLUDED-SECRET-SENTENCE that must never show in an answer.\n",
  "Edits/Keep.md": "Line one\nLine two\r\nLine three without newline",
  "Edits/Change.md": "Shopping:\n- apples\n- pears\n",
  "Edits/Draft.md": "# Draft\n\nThis sentense has a eror.\nThe second line stays.\n",
  "Edits/Дневник.md": "статус: черновик\n",
  "Edits/Сад.md": "полив: вечером\n",
  "copilot/prompts/Fix grammar.md": "---\ndescription: Fix spelling and grammar\nedit: true\n---\nFix the grammar of {{selection}}.\n",
};

/** A promise and the function that settles it: a gate the test opens. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** A port nothing listens on (found free, then let go): a model server that is down. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const delay = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

/** Polls until `condition` holds (what the page writes reaches the disk a moment after it shows). */
async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the disk");
    await delay(50);
  }
}

/** The chat notes in the vault's history folder, as absolute paths. */
function listChatNotes(root: string): string[] {
  const folder = join(root, "copilot/chats");
  return existsSync(folder) ? readdirSync(folder).filter((name) => name.endsWith(".md")).map((name) => join(folder, name)) : [];
}

describe("chat view in the browser demo", () => {
  // Known to take tools, as after Test connection: new chats start in Agent (the settings' mode).
  const scripted = useScriptedDemo(NOTES, { modelTakesTools: true });
  // `queue`: what the model server answers next, each test queues its own; `sessionErrors`: the
  // console errors of every page any test opened, the last test expects none.
  const { queue, sessionErrors, open } = scripted;
  let tracker: LocalServer;

  beforeAll(async () => {
    tracker = await startLocalServer(() => ({ status: 200, headers: { "content-type": "image/png" }, body: "" }));
  });

  afterAll(async () => {
    await tracker?.close();
  });

  it("streams an answer: the article grows while the stream is held open, then shows rendered Markdown", async () => {
    const page = await open();
    const resume = gate();
    const text = "# Pruning guide\n\nFirst steps to take:\n\n- cut dead wood\n- shape the crown\n\n```js\nconst shears = sharpen();\n```\n";
    queue.push({ text, chunkSize: 4, pauseAfterChunks: 8, resumeWhen: resume.opened });
    await sendMessage(page, "How do I prune?");
    const answer = lastAnswer(page);
    await answer.getByText("Pruning guide").waitFor();
    // Held open: the beginning is on screen, the rest has not come, the reply still runs.
    expect(await answer.innerText()).not.toContain("shape the crown");
    await page.getByRole("button", { name: "Stop" }).waitFor();
    resume.open();
    await waitUntilIdle(page);
    await expect(answer.getByRole("heading", { name: "Pruning guide" }).count()).resolves.toBe(1);
    expect(await answer.getByRole("listitem").allInnerTexts()).toEqual(["cut dead wood", "shape the crown"]);
    expect(await answer.getByRole("code").last().innerText()).toContain("const shears = sharpen();");
    await page.close();
  });

  it("an agent turn shows its tool banners, and a [[link]] in the answer opens the note", async () => {
    const page = await open();
    queue.push(
      { toolCalls: [{ name: "localSearch", arguments: JSON.stringify({ query: "prune roses", salientTerms: ["prune", "roses"] }) }] },
      { toolCalls: [{ name: "readNote", arguments: JSON.stringify({ notePath: "Garden/Roses.md" }) }] },
      { text: "Prune them in early spring, see [[Garden/Roses]]." },
    );
    await sendMessage(page, "When do I prune roses?");
    await waitUntilIdle(page);
    const answer = lastAnswer(page);
    const search = answer.getByRole("group").filter({ hasText: "Searched your notes" });
    const read = answer.getByRole("group").filter({ hasText: "Read a note" });
    expect([await search.count(), await read.count()]).toEqual([1, 1]);
    // Opened, the search banner lists its hits as links and shows the arguments the model sent.
    await search.click();
    await expect(search.getByRole("link", { name: "Roses" }).count()).resolves.toBe(1);
    expect(await search.innerText()).toContain("query: prune roses");
    await answer.getByRole("link", { name: "Garden/Roses" }).click();
    const opened = await page.evaluate(() => ({
      links: window.app.workspace.openedLinks.map((link) => link.linktext),
      active: window.app.workspace.getActiveFile()?.path,
    }));
    expect(opened).toEqual({ links: ["Garden/Roses"], active: "Garden/Roses.md" });
    await page.close();
  });

  it("an edit proposed by replaceInFile: rejected leaves the file byte for byte, accepted changes it exactly as proposed", async () => {
    const page = await open();
    const keepPath = join(scripted.vault.root, "Edits/Keep.md");
    const changePath = join(scripted.vault.root, "Edits/Change.md");
    const keepBefore = readFileSync(keepPath);
    queue.push(
      { toolCalls: [{ name: "replaceInFile", arguments: JSON.stringify({ path: "Edits/Keep.md", oldText: "Line two", newText: "Line 2" }) }] },
      { text: "Understood, I left it as it was." },
    );
    await sendMessage(page, "Use digits in Keep");
    const rejectCard = lastAnswer(page).getByRole("region", { name: "Edit Edits/Keep.md?" });
    await rejectCard.waitFor();
    await rejectCard.getByRole("button", { name: "Reject" }).click();
    await waitUntilIdle(page);
    expect(readFileSync(keepPath).equals(keepBefore)).toBe(true);
    // The model heard it was rejected.
    expect(JSON.stringify(scripted.model.requests.at(-1)!.body.messages.at(-1))).toContain("rejected");

    queue.push(
      { toolCalls: [{ name: "replaceInFile", arguments: JSON.stringify({ path: "Edits/Change.md", oldText: "- pears\n", newText: "- pears\n- plums\n" }) }] },
      { text: "Added plums." },
    );
    await sendMessage(page, "Add plums to Change");
    const acceptCard = lastAnswer(page).getByRole("region", { name: "Edit Edits/Change.md?" });
    await acceptCard.waitFor();
    await acceptCard.getByRole("button", { name: "Accept" }).click();
    await waitUntilIdle(page);
    expect(readFileSync(changePath, "utf8")).toBe("Shopping:\n- apples\n- pears\n- plums\n");
    await page.close();
  });

  it("an accepted edit, undone from its banner's folded line, reads Undone with no ✓, and the next request tells the model", async () => {
    const path = join(scripted.vault.root, "Edits/Дневник.md");
    const page = await open();
    queue.push(
      { toolCalls: [{ name: "replaceInFile", arguments: JSON.stringify({ path: "Edits/Дневник.md", oldText: "черновик", newText: "готово" }) }] },
      { text: "Отметил как готовое." },
    );
    await sendMessage(page, "Отметь дневник как готовый");
    const card = lastAnswer(page).getByRole("region", { name: "Edit Edits/Дневник.md?" });
    await card.getByRole("button", { name: "Accept" }).click();
    await waitUntilIdle(page);
    expect(readFileSync(path, "utf8")).toBe("статус: готово\n");
    // Folded, the banner shows its outcome first; Undo is beside it, without opening the banner.
    const banner = lastAnswer(page).getByRole("group").filter({ hasText: "Edits/Дневник.md" });
    const line = async () => (await banner.innerText()).replace(/\s+/g, " ");
    expect(await line()).toMatch(/^✓ Edited \+1 −1 · Edits\/Дневник\.md/);
    await lastAnswer(page).getByRole("button", { name: "Undo" }).click();
    await lastAnswer(page).getByRole("status").filter({ hasText: "previous text is back" }).waitFor();
    await waitFor(() => readFileSync(path, "utf8") === "статус: черновик\n");
    await expect(line()).resolves.toMatch(/^↩ Undone · Edits\/Дневник\.md/);
    expect(await line()).not.toContain("✓");
    await expect(lastAnswer(page).getByRole("button", { name: "Undo" }).count()).resolves.toBe(0);

    queue.push({ text: "Понял." });
    await sendMessage(page, "Что теперь?");
    await waitUntilIdle(page);
    const question = JSON.stringify(scripted.model.requests.at(-1)!.body.messages.at(-1)!.content);
    expect(question).toContain("The user undid the edit of Edits/Дневник.md");
    expect(question.indexOf("The user undid")).toBeLessThan(question.indexOf("[User query]: Что теперь?"));
    await page.close();
  });

  it("at 300 px the header is one row: Mode, Model, New chat and Chat history side by side, inside the view", async () => {
    const page = await open({ width: 300 });
    const view = page.locator(CHAT_VIEW_SELECTOR);
    const viewBox = (await view.boundingBox())!;
    const controls = [
      page.getByRole("combobox", { name: "Mode", exact: true }),
      page.getByRole("combobox", { name: "Model", exact: true }),
      page.getByRole("button", { name: "New chat" }),
      page.getByRole("button", { name: "Chat history" }),
    ];
    const boxes = await Promise.all(controls.map(async (control) => (await control.boundingBox())!));
    const middles = boxes.map((box) => box.y + box.height / 2);
    // One row: every control's middle within a few pixels of the first's, left to right, none past the view's edge.
    expect(Math.max(...middles) - Math.min(...middles)).toBeLessThan(4);
    expect(boxes.map((box) => box.x)).toEqual([...boxes.map((box) => box.x)].sort((a, b) => a - b));
    expect(boxes.every((box) => box.x >= viewBox.x && box.x + box.width <= viewBox.x + viewBox.width)).toBe(true);
    // The model picker keeps room to read a name; the icons show an icon.
    expect(boxes[1]!.width).toBeGreaterThan(80);
    for (const icon of controls.slice(2)) expect(await icon.locator("svg").count()).toBe(1);
    await page.close();
  });

  it("an empty chat says what its mode does; an example question goes into Message and is not sent", async () => {
    const page = await open();
    await chooseMode(page, "Vault QA");
    const requestsBefore = scripted.model.requests.length;
    const examples = conversation(page).getByRole("list", { name: "Example questions" });
    await expect(examples.getByRole("button").count()).resolves.toBe(3);
    expect(await conversation(page).innerText()).toContain("Vault QA answers from your notes");
    const first = examples.getByRole("button").first();
    const question = await first.innerText();
    await first.click();
    await expect(page.getByRole("textbox", { name: "Message" }).inputValue()).resolves.toBe(question);
    expect(await page.getByRole("textbox", { name: "Message" }).evaluate((element) => element === document.activeElement)).toBe(true);
    expect(scripted.model.requests.length).toBe(requestsBefore);
    await page.close();
  });

  it("an approval card that appears while the user types in Message is never accepted by the typing", async () => {
    const path = join(scripted.vault.root, "Daily/2026-12-01.md");
    mkdirSync(join(scripted.vault.root, "Daily"), { recursive: true });
    writeFileSync(path, "status: draft\n");
    const page = await open();
    const proposed = gate();
    queue.push(
      {
        text: "Checking the note.",
        chunkSize: 100,
        toolCalls: [{ name: "replaceInFile", arguments: JSON.stringify({ path: "Daily/2026-12-01.md", oldText: "draft", newText: "final" }) }],
        pauseAfterChunks: 2,
        resumeWhen: proposed.opened,
      },
      { text: "Changed it." },
    );
    await sendMessage(page, "Finalise the daily note");
    await lastAnswer(page).getByText("Checking").waitFor();
    const box = page.getByRole("textbox", { name: "Message" });
    await box.click();
    await box.pressSequentially("and then ");
    // The card appears while the user goes on typing: letters, spaces, Enter, Mod+Enter.
    proposed.open();
    const card = lastAnswer(page).getByRole("region", { name: "Edit Daily/2026-12-01.md?" });
    await card.waitFor();
    // Typed as keys go: to whatever has the focus now (locator.pressSequentially would focus the box first).
    await page.keyboard.type("add a title ");
    for (const key of ["Space", "Enter", "Control+Enter", "Meta+Enter"]) await page.keyboard.press(key);
    await expect(page.getByRole("status").innerText()).resolves.toBe("Copilot wants to edit Daily/2026-12-01.md");
    expect(await box.evaluate((element) => element === document.activeElement)).toBe(true);
    expect(await box.inputValue()).toBe("and then add a title  ");
    await expect(card.count()).resolves.toBe(1);
    expect(readFileSync(path, "utf8")).toBe("status: draft\n");
    // A click is the way to accept (playwright waits for the card's first moments to pass).
    await card.getByRole("button", { name: "Accept" }).click();
    await waitUntilIdle(page);
    expect(readFileSync(path, "utf8")).toBe("status: final\n");
    await page.close();
  });

  it('"@" mentions stay in the message as links: "Compare @soup with @salad" is sent and shown as written, both notes attached', async () => {
    const page = await open();
    await chooseMode(page, "Chat");
    queue.push({ text: "Both are light." });
    const requestsBefore = scripted.model.requests.length;
    const box = page.getByRole("textbox", { name: "Message" });
    await box.click();
    await page.keyboard.type("Compare @soup");
    await page.getByRole("option", { name: /Kitchen\/Soup/ }).waitFor();
    await page.keyboard.press("Enter");
    await page.keyboard.type("with @kitchen sal");
    await page.getByRole("option", { name: /Kitchen\/Salad/ }).waitFor();
    await page.keyboard.press("Enter");
    await expect(box.inputValue()).resolves.toBe("Compare [[Kitchen/Soup]] with [[Kitchen/Salad]] ");
    // Enter picked each suggestion; nothing was sent yet.
    expect(scripted.model.requests.length).toBe(requestsBefore);
    await page.keyboard.press("Enter");
    await waitUntilIdle(page);
    const sent = JSON.stringify(scripted.model.requests.at(-1)!.body.messages);
    expect(sent).toContain("simmer tomatoes with basil");
    expect(sent).toContain("lettuce, cucumber");
    expect(sent).toContain("Compare [[Kitchen/Soup]] with [[Kitchen/Salad]]");
    await expect(conversation(page).getByRole("article", { name: "You" }).last().innerText()).resolves.toContain("Compare [[Kitchen/Soup]] with [[Kitchen/Salad]]");
    await page.close();
  });

  it("following the stream keeps the last answer's footer in view; the user's own scrolling stops it, and Newest brings it back", async () => {
    const page = await open({ viewport: { width: 1200, height: 600 } });
    await chooseMode(page, "Chat");
    const long = Array.from({ length: 40 }, (_, index) => `${index + 1}. Пункт ${index + 1}: a line of the answer, long enough to wrap in a sidebar.`).join("\n");
    const log = conversation(page);
    const distanceFromBottom = () => log.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight);
    const footerInView = async () => {
      const copy = (await lastAnswer(page).getByRole("button", { name: "Copy" }).boundingBox())!;
      const view = (await log.boundingBox())!;
      return copy.y >= view.y && copy.y + copy.height <= view.y + view.height;
    };
    queue.push({ text: long, chunkSize: 40, chunkDelayMs: 15 });
    await sendMessage(page, "A long list, please");
    await lastAnswer(page).getByText("Пункт 10").waitFor();
    expect(await distanceFromBottom()).toBeLessThanOrEqual(32);
    await waitUntilIdle(page);
    await expect(footerInView()).resolves.toBe(true);

    queue.push({ text: long, chunkSize: 40, chunkDelayMs: 15 });
    await sendMessage(page, "Again");
    await lastAnswer(page).getByText("Пункт 5").waitFor();
    await log.hover();
    await page.mouse.wheel(0, -600);
    await lastAnswer(page).getByText("Пункт 20").waitFor();
    const newest = page.getByRole("button", { name: "Newest" });
    await newest.waitFor();
    // Text kept arriving and the view stayed where the user put it.
    const away = await distanceFromBottom();
    expect(away).toBeGreaterThan(300);
    await waitUntilIdle(page);
    await expect(footerInView()).resolves.toBe(false);
    // The conversation shrinks a moment (a finished answer drawn again), which clamps the scroll to
    // the bottom: that is not the user coming back down, so the place they chose is kept.
    await lastAnswer(page).evaluate(async (answer: HTMLElement) => {
      const frames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      answer.hidden = true;
      await frames();
      answer.hidden = false;
      await frames();
    });
    await expect(footerInView()).resolves.toBe(false);
    await newest.waitFor();
    await newest.click();
    await expect(footerInView()).resolves.toBe(true);
    await expect(newest.count()).resolves.toBe(0);
    // Related notes opened under a long conversation keep their size (up to their cap), and so does the log.
    await page.getByText("Related notes", { exact: true }).click();
    await page.getByRole("list", { name: "Related notes" }).waitFor();
    const sizes = await page.evaluate(() => {
      const related = document.querySelector<HTMLElement>(".vault-copilot-related-section")!;
      const chat = document.querySelector<HTMLElement>(".vault-copilot-chat")!;
      return { related: related.clientHeight, wanted: related.scrollHeight, cap: chat.clientHeight * 0.4, log: document.querySelector<HTMLElement>(".vault-copilot-messages")!.clientHeight };
    });
    expect(sizes.related).toBeGreaterThanOrEqual(Math.min(sizes.wanted, Math.floor(sizes.cap)));
    expect(sizes.log).toBeGreaterThan(150);
    await page.close();
  });

  it("Stop mid-stream keeps the partial text, brings Send back, and nothing arrives after", async () => {
    const page = await open();
    const resume = gate();
    queue.push({ text: "Partial words first. Then a great deal more that must never be shown.", chunkSize: 5, pauseAfterChunks: 5, resumeWhen: resume.opened });
    await sendMessage(page, "Tell me a long story");
    const answer = lastAnswer(page);
    await answer.getByText("Partial words first").waitFor();
    await page.getByRole("button", { name: "Stop" }).click();
    await waitUntilIdle(page);
    const stopped = await answer.innerText();
    // Stop cut the connection to the model server (through the demo's proxy) while it was held
    // open: this settles only when the connection closed, and the server still had more to send.
    await scripted.model.requests.at(-1)!.closed;
    // The model server would send the rest now; none of it may show.
    resume.open();
    await delay(500);
    expect(await answer.innerText()).toBe(stopped);
    expect(stopped).toContain("Partial words first");
    expect(stopped).not.toContain("must never be shown");
    await page.close();
  });

  it("Stop while an edit waits for approval withdraws the card and writes nothing", async () => {
    const page = await open();
    const changePath = join(scripted.vault.root, "Edits/Change.md");
    const before = readFileSync(changePath);
    queue.push({ toolCalls: [{ name: "replaceInFile", arguments: JSON.stringify({ path: "Edits/Change.md", oldText: "Shopping:", newText: "Groceries:" }) }] });
    await sendMessage(page, "Rename the list");
    const card = lastAnswer(page).getByRole("region", { name: "Edit Edits/Change.md?" });
    await card.waitFor();
    await page.getByRole("button", { name: "Stop" }).click();
    await waitUntilIdle(page);
    await expect(card.count()).resolves.toBe(0);
    await lastAnswer(page).getByRole("group").filter({ hasText: "Replace in note was stopped" }).waitFor();
    expect(await lastAnswer(page).innerText()).toContain("Stopped.");
    expect(readFileSync(changePath).equals(before)).toBe(true);
    await page.close();
  });

  it("Enter sends and Escape stops a running reply", async () => {
    const page = await open();
    const resume = gate();
    queue.push({ text: "Started and then held forever.", pauseAfterChunks: 3, resumeWhen: resume.opened });
    const box = page.getByRole("textbox", { name: "Message" });
    await box.fill("Keyboard only");
    await box.press("Enter");
    await lastAnswer(page).getByText("Started").waitFor();
    await box.press("Escape");
    await waitUntilIdle(page);
    resume.open();
    expect(await lastAnswer(page).innerText()).not.toContain("forever");
    await page.close();
  });

  it("a search hit in an opened tool banner opens its note", async () => {
    const page = await open();
    queue.push({ toolCalls: [{ name: "localSearch", arguments: JSON.stringify({ query: "tomato soup", salientTerms: ["tomato", "soup"] }) }] }, { text: "Found it." });
    await sendMessage(page, "Where is my soup recipe?");
    await waitUntilIdle(page);
    const banner = lastAnswer(page).getByRole("group").filter({ hasText: "Searched your notes" });
    await banner.click();
    await banner.getByRole("link", { name: "Soup" }).click();
    expect(await page.evaluate(() => window.app.workspace.getActiveFile()?.path)).toBe("Kitchen/Soup.md");
    await page.close();
  });

  it("on a phone (?mobile=1, no Node) an agent turn reads a note, proposes an edit, and the accepted edit reaches the disk", async () => {
    const page = await open({ query: "?mobile=1", width: 375, viewport: { width: 375, height: 740 } });
    const path = join(scripted.vault.root, "Kitchen/Salad.md");
    queue.push(
      { toolCalls: [{ name: "readNote", arguments: JSON.stringify({ notePath: "Kitchen/Salad" }) }] },
      { toolCalls: [{ name: "replaceInFile", arguments: JSON.stringify({ path: "Kitchen/Salad.md", oldText: "a lemon dressing", newText: "a lime dressing" }) }] },
      { text: "Done: the salad now has lime ([[Kitchen/Salad]])." },
    );
    await sendMessage(page, "Use lime in the salad");
    const card = lastAnswer(page).getByRole("region", { name: "Edit Kitchen/Salad.md?" });
    await card.waitFor();
    await card.getByRole("button", { name: "Accept" }).click();
    await waitUntilIdle(page);
    await lastAnswer(page).getByRole("link", { name: "Kitchen/Salad" }).waitFor();
    expect(readFileSync(path, "utf8")).toBe("Green salad: lettuce, cucumber and a lime dressing.\n");
    // The note's text went to the model as the readNote result.
    expect(JSON.stringify(scripted.model.requests.at(-2)!.body.messages)).toContain("lettuce, cucumber and a lemon dressing");
    await page.close();
  });

  it("Vault QA sends the notes' text before the question; Agent binds tools, Chat does not", async () => {
    const page = await open();
    await chooseMode(page, "Vault QA");
    queue.push({ text: "Early spring, says [[Garden/Roses]]." });
    await sendMessage(page, "When should roses be pruned?");
    await waitUntilIdle(page);
    const qa = scripted.model.requests.at(-1)!.body;
    const sent = JSON.stringify(qa.messages);
    expect(sent).toContain("Prune roses in early spring");
    expect(sent.indexOf("Prune roses in early spring")).toBeLessThan(sent.lastIndexOf("When should roses be pruned?"));
    expect(qa.tools ?? []).toEqual([]);
    // The notes it searched are listed under the answer, as links.
    const sources = lastAnswer(page).getByRole("group").filter({ hasText: "Searched notes" });
    await sources.click();
    await sources.getByRole("link", { name: "Roses" }).waitFor();

    await chooseMode(page, "Agent");
    queue.push({ text: "Agent here." });
    await sendMessage(page, "Hello agent");
    await waitUntilIdle(page);
    expect(scripted.model.requests.at(-1)!.body.tools?.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(["localSearch", "readNote", "replaceInFile"]));

    await chooseMode(page, "Chat");
    queue.push({ text: "Chat here." });
    await sendMessage(page, "Hello chat");
    await waitUntilIdle(page);
    expect(scripted.model.requests.at(-1)!.body.tools ?? []).toEqual([]);
    await page.close();
  });

  it("Edit on the last question puts it in a box inside the message, and sending it asks again", async () => {
    const page = await open({ width: 360 });
    queue.push({ text: "First answer." }, { text: "Answer to the edited question." });
    await sendMessage(page, "Waht is a rose?");
    await waitUntilIdle(page);
    const question = conversation(page).getByRole("article", { name: "You" }).last();
    await question.getByRole("button", { name: "Edit" }).click();
    const box = question.getByRole("textbox", { name: "Edit message" });
    const [boxBounds, questionBounds] = [(await box.boundingBox())!, (await question.boundingBox())!];
    expect(boxBounds.x + boxBounds.width).toBeLessThanOrEqual(questionBounds.x + questionBounds.width);
    await box.fill("What is a rose?");
    await question.getByRole("button", { name: "Send edited message" }).click();
    await waitUntilIdle(page);
    await lastAnswer(page).getByText("Answer to the edited question.").waitFor();
    expect(JSON.stringify(scripted.model.requests.at(-1)!.body.messages)).toContain("What is a rose?");
    expect(await conversation(page).innerText()).not.toContain("Waht");
    await page.close();
  });

  it("Regenerate asks again for a new answer, Copy and Insert at cursor hand on its text, New chat empties the conversation", async () => {
    const page = await open();
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    queue.push({ text: "The first draft." }, { text: "The **second** draft." });
    await sendMessage(page, "Write a draft");
    await waitUntilIdle(page);
    await lastAnswer(page).getByText("The first draft.").waitFor();
    await lastAnswer(page).getByRole("button", { name: "Regenerate" }).click();
    await waitUntilIdle(page);
    await lastAnswer(page).getByText("The second draft.").waitFor();
    expect(await lastAnswer(page).innerText()).toContain("The second draft.");
    expect(await conversation(page).getByRole("article", { name: "Copilot" }).count()).toBe(1);
    // Asked again with the same question, without the replaced answer.
    const again = JSON.stringify(scripted.model.requests.at(-1)!.body.messages);
    expect([again.includes("Write a draft"), again.includes("The first draft.")]).toEqual([true, false]);

    await lastAnswer(page).getByRole("button", { name: "Copy" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("The **second** draft.");
    await lastAnswer(page).getByRole("button", { name: "Insert at cursor" }).click();
    const editorText = await page.evaluate(() => window.app.workspace.getActiveViewOfType(window.demo.obsidian.MarkdownView)?.editor.getValue());
    expect(editorText).toContain("The **second** draft.");

    await page.getByRole("button", { name: "New chat" }).click();
    await expect(conversation(page).getByRole("article").count()).resolves.toBe(0);
    await page.close();
  });

  it.each([
    ["401 (a wrong key)", { status: 401, message: "Incorrect API key provided" }, "refused the API key"],
    ["404 (an unknown model)", { status: 404, code: "model_not_found", message: "The model `scripted-model` does not exist or you do not have access to it." }, 'has no model "scripted-model"'],
  ])("an error %s is shown in words with Retry, and Retry succeeds", async (_name, failure, words) => {
    const page = await open();
    queue.push(failure, { text: "Recovered answer." });
    await sendMessage(page, "Are you there?");
    const alert = lastAnswer(page).getByRole("alert");
    await alert.waitFor();
    expect(await alert.innerText()).toContain(words);
    await lastAnswer(page).getByRole("button", { name: "Retry" }).click();
    await waitUntilIdle(page);
    await lastAnswer(page).getByText("Recovered answer.").waitFor();
    await expect(lastAnswer(page).getByRole("alert").count()).resolves.toBe(0);
    await page.close();
  });

  it("safe first use: a model not known to take tools starts new chats in Chat; once it calls a tool in Agent, new chats start in Agent; web search is not offered before a search service is set", async () => {
    const freshDemo = await startDemo({ vault: scripted.vault.root, baseUrl: scripted.model.baseUrl, model: "scripted-model" });
    try {
      const page = await open({ demoUrl: freshDemo.url });
      const mode = page.getByRole("combobox", { name: "Mode", exact: true });
      await expect(mode.inputValue()).resolves.toBe("chat");
      await chooseMode(page, "Agent");
      queue.push({ toolCalls: [{ name: "readNote", arguments: JSON.stringify({ notePath: "Garden/Roses" }) }] }, { text: "Early spring." });
      await sendMessage(page, "When do I prune roses?");
      await waitUntilIdle(page);
      const offered = (scripted.model.requests.at(-2)!.body.tools ?? []).map((tool) => tool.function.name);
      expect(offered).toContain("readNote");
      expect(offered).not.toContain("webSearch");
      await page.getByRole("button", { name: "New chat" }).click();
      await expect(mode.inputValue()).resolves.toBe("agent");
      await page.close();
    } finally {
      await freshDemo.stop();
    }
  });

  it("an unreachable model server is reported in words with Retry, and Retry succeeds once the server is up", async () => {
    const port = await freePort();
    const offlineDemo = await startDemo({ vault: scripted.vault.root, baseUrl: `http://127.0.0.1:${port}/v1`, model: "scripted-model" });
    let lateServer: OpenAIServer | undefined;
    try {
      const page = await open({ demoUrl: offlineDemo.url });
      await sendMessage(page, "Anyone home?");
      const alert = lastAnswer(page).getByRole("alert");
      await alert.waitFor({ timeout: 60_000 });
      expect(await alert.innerText()).toContain(`Cannot reach the model server (http://127.0.0.1:${port}/v1) (connection refused)`);
      // A server that cannot be reached is mended in the settings: the error offers them.
      await alert.getByRole("button", { name: "Open settings" }).click();
      const settings = page.getByRole("dialog", { name: "Settings" });
      await settings.getByRole("tab", { name: "Vault Copilot", selected: true }).waitFor();
      await settings.getByText("Base URL", { exact: true }).waitFor();
      await settings.getByRole("button", { name: "Close" }).click();
      await settings.waitFor({ state: "detached" });
      lateServer = await startOpenAIServer([{ text: "Back online." }], { port });
      await lastAnswer(page).getByRole("button", { name: "Retry" }).click();
      await waitUntilIdle(page);
      await lastAnswer(page).getByText("Back online.").waitFor();
      await page.close();
    } finally {
      await lateServer?.close();
      await offlineDemo.stop();
    }
  });

  it("an answer with dataviewjs, <script>, a tracking image and ![[embed]] runs, loads and transcludes nothing", async () => {
    const page = await open({ query: "?canary=1" });
    const outside = await watchOutsideRequests(page);
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const pixel = `${tracker.url}/tracker.png`;
    const text = [
      "Here is everything.",
      "",
      "```dataviewjs",
      "dv.span('ran')",
      "```",
      "",
      "<script>alert('script ran')</script>",
      "",
      `<img src="${pixel}" onerror="alert('onerror ran')">`,
      "",
      `![pixel](${tracker.url}/markdown-image.png)`,
      "",
      "![[Secret]]",
      "",
      "Inline `$= dv.current()` too. The end.",
    ].join("\n");
    queue.push({ text });
    await sendMessage(page, "Show me tricks");
    await waitUntilIdle(page);
    const answer = lastAnswer(page);
    await answer.getByText("The end.").waitFor();
    await delay(500); // time for an image or a script to have reached the network, if one were there
    expect(await page.evaluate(() => window.demo.canaryCalls)).toEqual([]);
    expect(dialogs).toEqual([]);
    await expect(answer.locator("script, img, iframe").count()).resolves.toBe(0);
    expect(tracker.requests).toEqual([]);
    expect(outside).toEqual([]);
    expect(await answer.innerText()).not.toContain("TRANSCLUDED-SECRET-SENTENCE");
    await page.close();
  });

  const LONG_ANSWER = [
    "A long line of code:",
    "",
    "```ts",
    `const ${"veryLongIdentifier".repeat(20)} = ${"1 + ".repeat(60)}1;`,
    "```",
    "",
    `| ${Array.from({ length: 12 }, (_, index) => `Column header ${index}`).join(" | ")} |`,
    `|${" --- |".repeat(12)}`,
    `| ${Array.from({ length: 12 }, (_, index) => `cell-value-number-${index}`).join(" | ")} |`,
    "",
    `An unbroken word: ${"x".repeat(300)}`,
  ].join("\n");

  it.each([
    ["a 300 px sidebar", { query: "", width: 300 }],
    ["a 375 px phone", { query: "?mobile=1", width: 375, viewport: { width: 375, height: 740 } }],
  ])("in %s the chat view does not scroll sideways after a long answer", async (_name, options) => {
    const page = await open(options);
    queue.push({ text: LONG_ANSWER });
    await sendMessage(page, "Something wide");
    await waitUntilIdle(page);
    await lastAnswer(page).getByText("An unbroken word").waitFor();
    const overflow = await page.evaluate((selector) => {
      const measure = (element: Element | null) => (element ? { scrollWidth: element.scrollWidth, clientWidth: element.clientWidth } : null);
      return { view: measure(document.querySelector(selector)), conversation: measure(document.querySelector('[role="log"][aria-label="Conversation"]')) };
    }, CHAT_VIEW_SELECTOR);
    expect(overflow.view!.scrollWidth).toBeLessThanOrEqual(overflow.view!.clientWidth);
    expect(overflow.conversation!.scrollWidth).toBeLessThanOrEqual(overflow.conversation!.clientWidth);
    await page.screenshot({ path: screenshotPath(`chat-wide-${options.width}.png`) });
    await page.close();
  });

  describe.each(["dark", "light"] as const)("screenshots at 300 px, %s theme", (theme) => {
    const width = 300;
    const shoot = (page: Page, name: string) => page.locator(CHAT_VIEW_SELECTOR).screenshot({ path: screenshotPath(`chat-${name}-${theme}.png`) });

    it("an empty chat", async () => {
      const page = await open({ theme, width });
      await conversation(page).getByRole("list", { name: "Example questions" }).waitFor();
      await shoot(page, "empty");
      await page.close();
    });

    it("an answer", async () => {
      const page = await open({ theme, width });
      queue.push({
        text: "## Pruning roses\n\nPrune in **early spring**, as [[Garden/Roses]] says:\n\n1. Cut dead wood first.\n2. Cut just above an outward-facing bud.\n\n```python\nfor cane in bush.canes:\n    cane.cut(above='bud')\n```\n",
      });
      await sendMessage(page, "When and how do I prune my roses?");
      await waitUntilIdle(page);
      await lastAnswer(page).getByRole("heading", { name: "Pruning roses" }).waitFor();
      await shoot(page, "answer");
      await page.close();
    });

    it("a tool banner, opened", async () => {
      const page = await open({ theme, width });
      queue.push(
        { toolCalls: [{ name: "localSearch", arguments: JSON.stringify({ query: "soup recipe", salientTerms: ["soup", "tomato"] }) }] },
        { text: "Your tomato soup simmers for twenty minutes with basil ([[Kitchen/Soup]])." },
      );
      await sendMessage(page, "How long does my tomato soup cook?");
      await waitUntilIdle(page);
      const banner = lastAnswer(page).getByRole("group").filter({ hasText: "Searched your notes" });
      await banner.click();
      await banner.getByRole("link", { name: "Soup" }).waitFor();
      await shoot(page, "tool-banner");
      await page.close();
    });

    it("an edit accepted, then undone", async () => {
      const page = await open({ theme, width });
      queue.push(
        { toolCalls: [{ name: "replaceInFile", arguments: JSON.stringify({ path: "Edits/Сад.md", oldText: "вечером", newText: "утром" }) }] },
        { text: "The garden is now watered in the morning." },
      );
      await sendMessage(page, "Water the garden in the morning instead");
      await lastAnswer(page).getByRole("region", { name: "Edit Edits/Сад.md?" }).getByRole("button", { name: "Accept" }).click();
      await waitUntilIdle(page);
      await shoot(page, "edited");
      await lastAnswer(page).getByRole("button", { name: "Undo" }).click();
      await lastAnswer(page).getByRole("status").filter({ hasText: "previous text is back" }).waitFor();
      await shoot(page, "undone");
      expect(readFileSync(join(scripted.vault.root, "Edits/Сад.md"), "utf8")).toBe(NOTES["Edits/Сад.md"]);
      await page.close();
    });

    it("an approval card", async () => {
      const page = await open({ theme, width });
      queue.push(
        { toolCalls: [{ name: "replaceInFile", arguments: JSON.stringify({ path: "Kitchen/Soup.md", oldText: "twenty minutes", newText: "twenty-five minutes, then blend" }) }] },
        { text: "Left the recipe as it was." },
      );
      await sendMessage(page, "Make the soup cook longer and blend it");
      const card = lastAnswer(page).getByRole("region", { name: "Edit Kitchen/Soup.md?" });
      await card.waitFor();
      // Every control of the card lies inside the card (the reason box once stuck out on the right).
      const cardBox = (await card.boundingBox())!;
      for (const control of [card.getByRole("textbox"), card.getByRole("button", { name: "Reject" }), card.getByRole("button", { name: "Accept" })]) {
        const box = (await control.boundingBox())!;
        expect({ left: box.x >= cardBox.x, right: box.x + box.width <= cardBox.x + cardBox.width }).toEqual({ left: true, right: true });
      }
      // Shown as the user sees it once its first moments are over (Accept is dimmed until then).
      await card.getByRole("button", { name: "Accept", disabled: false }).waitFor();
      await shoot(page, "approval");
      await card.getByRole("button", { name: "Reject" }).click();
      await waitUntilIdle(page);
      expect(readFileSync(join(scripted.vault.root, "Kitchen/Soup.md"), "utf8")).toBe(NOTES["Kitchen/Soup.md"]);
      await page.close();
    });
  });

  it("a chat is saved as one note; after a reload it is found in Chat history, reopened and continued in the same note", async () => {
    const question = "Where do roses like to grow?";
    const notesWith = (text: string) => listChatNotes(scripted.vault.root).filter((path) => readFileSync(path, "utf8").includes(text));
    let page = await open();
    queue.push({ text: "Roses like full sun." });
    await sendMessage(page, question);
    await waitUntilIdle(page);
    await waitFor(() => notesWith("Roses like full sun.").length === 1);
    await page.close();

    // A new page loads the vault from disk again: nothing of the chat is left in memory.
    page = await open();
    await page.getByRole("button", { name: "Chat history" }).click();
    const panel = page.getByRole("region", { name: "Saved chats" });
    // Words no chat holds list nothing; the chat is found by words of its answer too.
    await page.getByRole("searchbox", { name: "Search chats" }).fill("roses zebra");
    await panel.getByText("No chat matches “roses zebra”.").waitFor();
    await page.getByRole("searchbox", { name: "Search chats" }).fill("full sun");
    // Listed under Today without the date its note's name starts with, the open chat not being it.
    const saved = panel.getByRole("group", { name: "Today" }).getByRole("button", { name: "Where do roses like to grow", exact: true });
    await saved.waitFor();
    await expect(panel.getByRole("button", { name: /^Where do roses like to grow$/ }).count()).resolves.toBe(1);
    await saved.click();
    await conversation(page).getByText("Roses like full sun.").waitFor();

    queue.push({ text: "Pots work if they are deep." });
    await sendMessage(page, "And in pots?");
    await waitUntilIdle(page);
    const sent = scripted.model.requests.at(-1)!.body.messages.map((message) => JSON.stringify(message.content));
    expect(sent.some((content) => content.includes(question))).toBe(true);
    expect(sent.some((content) => content.includes("Roses like full sun."))).toBe(true);
    await waitFor(() => readFileSync(notesWith(question)[0] ?? "", "utf8").includes("Pots work if they are deep."));
    expect(notesWith(question)).toHaveLength(1);
    const text = readFileSync(notesWith(question)[0]!, "utf8");
    expect(text.indexOf("Roses like full sun.")).toBeLessThan(text.indexOf("And in pots?"));
    await page.close();
  });

  it('"/" runs a prompt on the selection: its rewrite is a diff in the chat, Reject writes nothing, Accept writes exactly it', async () => {
    const draftPath = join(scripted.vault.root, "Edits/Draft.md");
    const before = readFileSync(draftPath);
    const page = await open();
    await page.evaluate(async () => {
      const file = window.app.vault.getFileByPath("Edits/Draft.md");
      if (!file) throw new Error("no draft");
      await window.app.workspace.openFile(file);
      window.app.workspace.getActiveViewOfType(window.demo.obsidian.MarkdownView)?.editor.setSelection({ line: 2, ch: 0 }, { line: 2, ch: 25 });
    });
    const runFix = async () => {
      await page.getByRole("textbox", { name: "Message" }).fill("/fix");
      await page.getByRole("listbox", { name: "Prompts" }).getByRole("option", { name: /Fix grammar/ }).waitFor();
      await page.getByRole("textbox", { name: "Message" }).press("Enter");
    };

    queue.push({ text: "This sentence has an error." });
    await runFix();
    const rejectCard = lastAnswer(page).getByRole("region", { name: "Edit Edits/Draft.md?" });
    await rejectCard.waitFor();
    await rejectCard.getByRole("button", { name: "Reject" }).click();
    await waitUntilIdle(page);
    expect(readFileSync(draftPath).equals(before)).toBe(true);

    queue.push({ text: "This sentence has an error." });
    await runFix();
    const acceptCard = lastAnswer(page).getByRole("region", { name: "Edit Edits/Draft.md?" });
    await acceptCard.waitFor();
    await acceptCard.getByRole("button", { name: "Accept" }).click();
    await waitUntilIdle(page);
    await waitFor(() => readFileSync(draftPath, "utf8") === "# Draft\n\nThis sentence has an error.\nThe second line stays.\n");
    await page.close();
  });

  it("Related notes under the chat follow the open note, say why, and add a note to the context", async () => {
    const page = await open();
    await page.getByRole("navigation", { name: "Notes" }).getByRole("button", { name: "Welcome", exact: true }).click();
    const view = page.locator(CHAT_VIEW_SELECTOR);
    await view.getByText("Related notes", { exact: true }).click();
    const related = view.getByRole("list", { name: "Related notes" });
    const roses = related.getByRole("listitem").filter({ hasText: "Roses" });
    await roses.waitFor();
    expect(await roses.innerText()).toContain("linked from this note");
    await roses.getByRole("button", { name: "Add Roses to chat" }).click();
    await view.getByRole("list", { name: "Context for the next message" }).getByText("Roses", { exact: true }).waitFor();
    await page.close();
  });

  it("logged no console errors in any page of the session", () => {
    expect(sessionErrors).toEqual([]);
  });
});
