import { DEFAULT_SETTINGS } from "../constants";
import { MapSecretStore } from "../ports/SecretStore";
import { FsDataStore } from "../vault/fsDataStore";
import { FakeScheduler } from "../../test/helpers/fakeScheduler";
import { startOpenAIServer, type OpenAIServer, type RecordedChatRequest, type ScriptedResponse } from "../../test/helpers/openAIServer";
import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";
import { completer } from "./completer";
import { CompletionSession, type CompletionPolicy, type EditorSnapshot, type Ghost } from "./CompletionSession";
import { CompletionUsage } from "./completionUsage";

const DAY_MS = 24 * 60 * 60 * 1000;

/** A session over a real scripted server and a real data folder, with time that moves only when told. */
async function setUp(script: (request: RecordedChatRequest) => ScriptedResponse | Promise<ScriptedResponse>, policy: Partial<CompletionPolicy> = {}) {
  const arrived: Array<(request: RecordedChatRequest) => void> = [];
  const server = await startOpenAIServer((request) => {
    arrived.shift()?.(request);
    return script(request);
  });
  const folder = makeTempVault();
  const scheduler = new FakeScheduler(new Date(2026, 11, 4, 10, 0).getTime());
  const usage = new CompletionUsage(new FsDataStore(folder.root));
  const settings = { ...DEFAULT_SETTINGS.completion, enabled: true, model: { ...DEFAULT_SETTINGS.completion.model, preset: "custom" as const, baseUrl: server.baseUrl, model: "small" } };
  const shown: Ghost[] = [];
  const notices: string[] = [];
  let clears = 0;
  const ghostWaiters: Array<() => void> = [];
  const noticeWaiters: Array<() => void> = [];
  const settled: Array<Promise<unknown>> = [];
  const complete = completer({ settings: () => settings, secrets: new MapSecretStore(), fetch: globalThis.fetch });
  const session = new CompletionSession({
    policy: () => ({ enabled: true, pauseMs: 600, onMobile: false, dailyRequestCap: 500, prices: { input: 1, output: 4, cacheRead: null, cacheWrite: null }, ...policy }),
    mobile: false,
    scheduler,
    usage,
    complete: (...args) => {
      const answer = complete(...args);
      settled.push(answer.catch(() => undefined));
      return answer;
    },
    show: (ghost) => {
      shown.push(ghost);
      ghostWaiters.shift()?.();
    },
    clear: () => clears++,
    notify: (message) => {
      notices.push(message);
      noticeWaiters.shift()?.();
    },
  });
  return {
    server,
    folder,
    scheduler,
    usage,
    session,
    shown,
    notices,
    clears: () => clears,
    nextRequest: () => new Promise<RecordedChatRequest>((resolve) => arrived.push(resolve)),
    nextGhost: () => new Promise<void>((resolve) => ghostWaiters.push(resolve)),
    /** Settles once every request so far has settled and the session has handled it. */
    allSettled: async () => {
      await Promise.all(settled);
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
    nextNotice: () => new Promise<void>((resolve) => noticeWaiters.push(resolve)),
  };
}

const snapshot = (text: string, cursor = text.length): EditorSnapshot => ({ text, cursor, selection: false, path: "Заметка.md" });

describe("CompletionSession", () => {
  let setup: Awaited<ReturnType<typeof setUp>> | undefined;
  let server: OpenAIServer | undefined;
  let folder: TempVault | undefined;
  afterEach(async () => {
    setup?.session.dispose();
    // A test may end at the first ghost, while its request's usage is still being written to the folder.
    await setup?.allSettled();
    await setup?.usage.flushed();
    await server?.close();
    folder?.remove();
    setup = server = folder = undefined;
  });

  async function begin(...args: Parameters<typeof setUp>) {
    setup = await setUp(...args);
    server = setup.server;
    folder = setup.folder;
    return setup;
  }

  it("asks only after the pause, and shows the answer as ghost text at the cursor", async () => {
    const { session, scheduler, shown, nextGhost, allSettled } = await begin(() => ({ text: " и пошли домой." }));
    session.changed(snapshot("Мы закончили работу"));
    scheduler.advance(599);
    expect(session.requesting).toBe(false);
    const ghost = nextGhost();
    scheduler.advance(1);
    expect(session.requesting).toBe(true);
    await ghost;
    await allSettled();
    expect(shown.at(-1)).toEqual({ at: "Мы закончили работу".length, text: " и пошли домой." });
    expect(server!.requests).toHaveLength(1);
  });

  it("a typed key aborts the request in flight: the server sees its connection closed, and the old answer never shows", async () => {
    let open = 0;
    let mostOpen = 0;
    const { session, scheduler, shown, nextRequest } = await begin((request) => {
      open++;
      mostOpen = Math.max(mostOpen, open);
      void request.closed.then(() => open--);
      return { text: " which never ends", holdOpen: true };
    });
    const first = nextRequest();
    session.changed(snapshot("The meeting was"));
    scheduler.advance(600);
    const request = await first;
    session.changed(snapshot("The meeting was "));
    await request.closed;
    expect(shown).toHaveLength(0);
    // The next pause asks again; the first was gone before the second was sent.
    const second = nextRequest();
    scheduler.advance(600);
    const secondRequest = await second;
    session.dismiss();
    await secondRequest.closed;
    expect(mostOpen).toBe(1);
  });

  it("moving the cursor aborts the request in flight too", async () => {
    const { session, scheduler, nextRequest } = await begin(() => ({ text: "…", holdOpen: true }));
    const arrived = nextRequest();
    session.changed(snapshot("Первая строка\nВторая строка"));
    scheduler.advance(600);
    const request = await arrived;
    session.changed(snapshot("Первая строка\nВторая строка", "Первая строка".length));
    await request.closed;
    expect(session.requesting).toBe(false);
  });

  it("keeps the ghost text while the user types its own characters, and asks nothing new", async () => {
    const { session, scheduler, clears } = await begin(() => ({ text: "unused" }));
    session.changed(snapshot("Hello wor"), "kept");
    scheduler.advance(10_000);
    expect(server!.requests).toHaveLength(0);
    expect(clears()).toBe(0);
  });

  it("asks nothing inside a [[link]]", async () => {
    const { session, scheduler } = await begin(() => ({ text: "unused" }));
    session.changed(snapshot("See [[Встреча"));
    scheduler.advance(600);
    expect(session.requesting).toBe(false);
    expect(server!.requests).toHaveLength(0);
  });

  it("pauses at the daily cap with one notice, and runs again the next day", async () => {
    const { session, scheduler, notices, nextGhost, nextNotice, usage } = await begin(() => ({ text: " more" }), { dailyRequestCap: 2 });
    for (const text of ["One", "One two"]) {
      const ghost = nextGhost();
      session.changed(snapshot(text));
      scheduler.advance(600);
      await ghost;
    }
    const notice = nextNotice();
    session.changed(snapshot("One two three"));
    scheduler.advance(600);
    await notice;
    expect(notices).toEqual(["Inline completion is paused until tomorrow: today's 2 requests (the daily cap in Vault Copilot's settings) have been sent."]);
    // A second pause the same day: still nothing sent, and no second notice.
    session.changed(snapshot("One two three four"));
    scheduler.advance(600);
    await usage.flushed();
    expect(server!.requests).toHaveLength(2);
    scheduler.advance(DAY_MS);
    const ghost = nextGhost();
    session.changed(snapshot("Next day"));
    scheduler.advance(600);
    await ghost;
    expect(server!.requests).toHaveLength(3);
    expect(notices).toHaveLength(1);
  });

  it("counts requests, tokens and cost for today and this month, in the plugin's data folder", async () => {
    const { session, scheduler, nextGhost, usage, allSettled } = await begin(() => ({ text: " и всё.", usage: { prompt_tokens: 1000, completion_tokens: 250 } }));
    const ghost = nextGhost();
    session.changed(snapshot("Вот"));
    scheduler.advance(600);
    await ghost;
    await allSettled();
    await usage.flushed();
    const summary = await new CompletionUsage(new FsDataStore(folder!.root)).summary(scheduler.now());
    // 1000 input tokens at $1 and 250 output tokens at $4 per million.
    expect(summary.today).toEqual({ requests: 1, inputTokens: 1000, outputTokens: 250, cost: 0.002, unpricedRequests: 0 });
    expect(summary.month.requests).toBe(1);
  });

  it("tells a failing server once, not at every pause", async () => {
    const { session, scheduler, notices, nextNotice, nextRequest, allSettled } = await begin(() => ({ status: 500, message: "model crashed" }));
    const notice = nextNotice();
    session.changed(snapshot("First"));
    scheduler.advance(600);
    await notice;
    const second = nextRequest();
    session.changed(snapshot("First second"));
    scheduler.advance(600);
    await second;
    await allSettled();
    expect(server!.requests).toHaveLength(2);
    expect(notices).toEqual([expect.stringContaining("Inline completion failed: HTTP 500: model crashed")]);
  });
});
