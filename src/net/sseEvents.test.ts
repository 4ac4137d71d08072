import { readSseEventBatches, readSseEvents, SseEventTooLargeError, type SseEvent } from "./sseEvents";

const encoder = new TextEncoder();

/** A body that hands over exactly these pieces, one per read, and records whether it was cancelled. */
function bodyOf(pieces: Array<string | Uint8Array>): { body: ReadableStream<Uint8Array>; cancelled: () => boolean } {
  let cancelled = false;
  let next = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const piece = pieces[next++];
        if (piece === undefined) controller.close();
        else controller.enqueue(typeof piece === "string" ? encoder.encode(piece) : piece);
      },
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, cancelled: () => cancelled };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const result: T[] = [];
  for await (const item of items) result.push(item);
  return result;
}

describe("readSseEvents", () => {
  it("reads events as the format defines them: LF, CRLF or CR, joined data lines, names, comments and unknown fields skipped", async () => {
    const stream = [
      ": a comment\n",
      "event: message_start\ndata: {\"a\":1}\n\n",
      "data: первая строка\r\ndata:вторая 行\r\n\r\n",
      "id: 7\nretry: 100\nfoo: bar\ndata: مرحبا\r\rdata\n\n",
      "event: ping\n\n",
      "data: ยังไม่จบ",
    ].join("");
    expect(await collect(readSseEvents(bodyOf([stream]).body))).toEqual([
      { event: "message_start", data: '{"a":1}' },
      { data: "первая строка\nвторая 行" },
      { data: "مرحبا" },
      { data: "" },
    ]);
  });

  it("gives the same events wherever the reads cut the stream, inside a line or a character", async () => {
    const events: SseEvent[] = [
      { data: '{"text":"Поиск по заметкам"}' },
      { event: "delta", data: "搜索笔记 · 🔎🌱 · Cafe\u0301 · ค้นหา" },
      { data: "line one\nline two" },
    ];
    const bytes = encoder.encode(events.map((event) => `${event.event ? `event: ${event.event}\r\n` : ""}data: ${event.data.split("\n").join("\r\ndata: ")}\r\n\r\n`).join(""));
    for (let cut = 1; cut < bytes.length; cut++) {
      const { body } = bodyOf([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(await collect(readSseEvents(body))).toEqual(events);
    }
  });
});

describe("readSseEventBatches", () => {
  it("hands over together the events one read completed, and nothing for a read that completed none", async () => {
    const { body } = bodyOf(["data: a\n\ndata: b\n\ndata: c", "-still c", "\n\ndata: d\n\n"]);
    expect(await collect(readSseEventBatches(body))).toEqual([[{ data: "a" }, { data: "b" }], [{ data: "c-still c" }, { data: "d" }]]);
  });

  it("stops an event growing past the limit with a clear error, and cancels the body", async () => {
    const { body, cancelled } = bodyOf(["data: fine\n\n", `data: ${"я".repeat(60)}`, "я".repeat(60), "я".repeat(60), "\n\n"]);
    const seen: SseEvent[][] = [];
    await expect(
      (async () => {
        for await (const events of readSseEventBatches(body, { maxEventCharacters: 100 })) seen.push(events);
      })(),
    ).rejects.toThrow(new SseEventTooLargeError(100));
    expect(seen).toEqual([[{ data: "fine" }]]);
    expect(cancelled()).toBe(true);
    expect(new SseEventTooLargeError(16 * 1024 * 1024).message).toBe("The server sent an event of more than 16,777,216 characters, more than any answer or tool call holds; the stream was stopped.");
  });

  it("refuses an event past the limit that arrived whole in one read, and keeps one at the limit", async () => {
    const atLimit = "字".repeat(100);
    expect(await collect(readSseEvents(bodyOf([`data: ${atLimit}\n\n`]).body, { maxEventCharacters: 100 }))).toEqual([{ data: atLimit }]);
    const { body, cancelled } = bodyOf([`data: ${atLimit}\ndata: 字\n\ndata: after\n\n`]);
    await expect(collect(readSseEvents(body, { maxEventCharacters: 100 }))).rejects.toThrow(SseEventTooLargeError);
    expect(cancelled()).toBe(true);
  });

  it("cancels the body when the reader stops early, so the connection goes", async () => {
    const { body, cancelled } = bodyOf(["data: one\n\n", "data: two\n\n"]);
    for await (const events of readSseEventBatches(body)) {
      expect(events).toEqual([{ data: "one" }]);
      break;
    }
    expect(cancelled()).toBe(true);
  });
});
