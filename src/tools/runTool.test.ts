import { z } from "zod";
import type { SimpleTool } from "./SimpleTool";
import { describeSchemaError, runTool, truncateForModel } from "./runTool";

const options = { toolCallId: "call_1", defaultTimeoutMs: 1_000, maxOutputChars: 10_000 };

const echoTool: SimpleTool<{ notePath: string; limit?: number }, { notePath: string; limit: number }> = {
  name: "echo",
  description: "echoes its arguments",
  schema: z.object({ notePath: z.string().min(1), limit: z.number().int().positive().optional() }),
  func: async (args) => ({ notePath: args.notePath, limit: args.limit ?? 3 }),
};

/** A tool that waits until aborted (or `ms` passes), recording the signal it was given. */
function waitingTool(ms: number, seen: { signal?: AbortSignal }, honoursSignal = true): SimpleTool<object, string> {
  return {
    name: "wait",
    description: "waits",
    schema: z.object({}),
    func: (_args, { signal }) => {
      seen.signal = signal;
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve("finished"), ms);
        if (honoursSignal) {
          signal.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(new Error("aborted by signal"));
          });
        }
      });
    },
  };
}

describe("runTool", () => {
  it("parses JSON-string arguments and returns structured output and model text", async () => {
    const result = await runTool(echoTool, '{"notePath":"a.md","limit":2}', options);
    expect(result.status).toBe("ok");
    expect(result.output).toEqual({ notePath: "a.md", limit: 2 });
    expect(JSON.parse(result.text)).toEqual({ notePath: "a.md", limit: 2 });
    expect(result.truncated).toBe(false);
  });

  it("accepts already-parsed arguments", async () => {
    const result = await runTool(echoTool, { notePath: "b.md" }, options);
    expect(result.output).toEqual({ notePath: "b.md", limit: 3 });
  });

  it("uses the tool's own formatForModel for the text", async () => {
    const tool = { ...echoTool, formatForModel: (o: { notePath: string }) => `note ${o.notePath}` };
    expect((await runTool(tool, { notePath: "c.md" }, options)).text).toBe("note c.md");
  });

  it("turns malformed JSON into an error result instead of throwing", async () => {
    const result = await runTool(echoTool, '{"notePath": "a.md"', options);
    expect(result.status).toBe("invalid-arguments");
    expect(result.text).toMatch(/not valid JSON/);
    expect(result.text).toMatch(/"echo"/);
  });

  it("names every bad field when arguments do not fit the schema", async () => {
    const result = await runTool(echoTool, { notePath: 5, limit: -1 }, options);
    expect(result.status).toBe("invalid-arguments");
    expect(result.text).toContain("`notePath`");
    expect(result.text).toContain("`limit`");
  });

  it("treats empty arguments as an empty object, so a required field is reported", async () => {
    const result = await runTool(echoTool, "", options);
    expect(result.status).toBe("invalid-arguments");
    expect(result.text).toContain("`notePath`");
  });

  it("reports a tool that throws as an error result with its message", async () => {
    const failing: SimpleTool<object, never> = {
      name: "broken",
      description: "fails",
      schema: z.object({}),
      func: async () => {
        throw new Error("disk on fire");
      },
    };
    const result = await runTool(failing, {}, options);
    expect(result.status).toBe("error");
    expect(result.text).toBe('Tool "broken" failed: disk on fire');
  });

  it("stops a tool that outlives its time limit and aborts its signal", async () => {
    const seen: { signal?: AbortSignal } = {};
    const result = await runTool(waitingTool(10_000, seen), {}, { ...options, defaultTimeoutMs: 30 });
    expect(result.status).toBe("timeout");
    expect(result.text).toMatch(/did not finish/);
    expect(seen.signal?.aborted).toBe(true);
  });

  it("settles on time even when the tool ignores its signal", async () => {
    const seen: { signal?: AbortSignal } = {};
    const result = await runTool(waitingTool(300, seen, false), {}, { ...options, defaultTimeoutMs: 20 });
    expect(result.status).toBe("timeout");
  });

  it("prefers the tool's own timeoutMs over the default", async () => {
    const seen: { signal?: AbortSignal } = {};
    const tool = { ...waitingTool(10_000, seen), timeoutMs: 20 };
    const result = await runTool(tool, {}, { ...options, defaultTimeoutMs: 60_000 });
    expect(result.status).toBe("timeout");
  });

  it("aborts a running tool when the run is aborted", async () => {
    const controller = new AbortController();
    const seen: { signal?: AbortSignal } = {};
    const pending = runTool(waitingTool(10_000, seen), {}, { ...options, defaultTimeoutMs: 60_000, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const result = await pending;
    expect(result.status).toBe("aborted");
    expect(seen.signal?.aborted).toBe(true);
  });

  it("does not start a tool when the run is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const seen: { signal?: AbortSignal } = {};
    const result = await runTool(waitingTool(10, seen), {}, { ...options, signal: controller.signal });
    expect(result.status).toBe("aborted");
    expect(seen.signal).toBeUndefined();
  });

  it("does not count the time a tool waits for the user toward its time limit", async () => {
    const tool: SimpleTool<object, string> = {
      name: "asks",
      description: "asks the user",
      schema: z.object({}),
      func: async (_args, context) => {
        if (!context.untimed) throw new Error("runTool gave no untimed()");
        const answer = await context.untimed(() => new Promise<string>((resolve) => setTimeout(() => resolve("yes"), 150)));
        return `the user said ${answer}`;
      },
    };
    const result = await runTool(tool, {}, { ...options, defaultTimeoutMs: 40 });
    expect(result).toMatchObject({ status: "ok", text: "the user said yes" });
  });

  it("still times out the work after the wait for the user", async () => {
    const seen: { signal?: AbortSignal } = {};
    const slowAfterAsking: SimpleTool<object, string> = {
      ...waitingTool(10_000, seen),
      func: async (args, context) => {
        await context.untimed?.(() => Promise.resolve());
        return waitingTool(10_000, seen).func(args, context);
      },
    };
    const result = await runTool(slowAfterAsking, {}, { ...options, defaultTimeoutMs: 30 });
    expect(result.status).toBe("timeout");
  });

  it("once a tool has committed (a write began), waits for it past the time limit and reports its own result", async () => {
    const tool: SimpleTool<object, string> = {
      name: "writes",
      description: "writes slowly",
      schema: z.object({}),
      func: async (_args, context) => {
        context.commit?.();
        await new Promise((resolve) => setTimeout(resolve, 150));
        return "written";
      },
    };
    const result = await runTool(tool, {}, { ...options, defaultTimeoutMs: 30 });
    expect(result).toMatchObject({ status: "ok", text: "written" });
  });

  it("once a tool has committed, tells it of the user's stop but still reports what it did", async () => {
    const controller = new AbortController();
    let stopSeen = false;
    const tool: SimpleTool<object, string> = {
      name: "writes",
      description: "writes slowly",
      schema: z.object({}),
      func: async (_args, context) => {
        context.commit?.();
        controller.abort();
        await new Promise((resolve) => setTimeout(resolve, 50));
        stopSeen = context.signal.aborted;
        return "written";
      },
    };
    const result = await runTool(tool, {}, { ...options, signal: controller.signal });
    expect(result).toMatchObject({ status: "ok", text: "written" });
    expect(stopSeen).toBe(true);
  });

  it("refuses a commit after the call was cut off, so nothing begins once its result is out", async () => {
    let commitError: unknown;
    let settle: () => void = () => undefined;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const tool: SimpleTool<object, string> = {
      name: "late",
      description: "commits after its time is up",
      schema: z.object({}),
      func: async (_args, context) => {
        await new Promise((resolve) => setTimeout(resolve, 80));
        try {
          context.commit?.();
        } catch (error) {
          commitError = error;
        }
        settle();
        return "written";
      },
    };
    const result = await runTool(tool, {}, { ...options, defaultTimeoutMs: 20 });
    expect(result.status).toBe("timeout");
    await settled;
    expect(commitError).toBeDefined();
  });

  it("gives every call of one run the same run id, and calls of other runs another", async () => {
    const ids: Array<string | undefined> = [];
    const tool: SimpleTool<object, string> = {
      name: "id",
      description: "records its run id",
      schema: z.object({}),
      func: async (_args, context) => {
        ids.push(context.runId);
        return "ok";
      },
    };
    const run = new AbortController();
    await runTool(tool, {}, { ...options, signal: run.signal });
    await runTool(tool, {}, { ...options, signal: run.signal });
    await runTool(tool, {}, { ...options, signal: new AbortController().signal });
    expect(ids[0]).toEqual(expect.any(String));
    expect(ids[1]).toBe(ids[0]);
    expect(ids[2]).not.toBe(ids[0]);
  });

  it("aborts the tool's signal once the call has finished, so leftovers stop", async () => {
    let signal: AbortSignal | undefined;
    const tool: SimpleTool<object, string> = {
      name: "quick",
      description: "quick",
      schema: z.object({}),
      func: async (_args, context) => {
        signal = context.signal;
        return "done";
      },
    };
    await runTool(tool, {}, options);
    expect(signal?.aborted).toBe(true);
  });

  it("cuts long output to the limit and says so", async () => {
    const tool: SimpleTool<object, string> = {
      name: "long",
      description: "long",
      schema: z.object({}),
      func: async () => "x".repeat(5_000),
    };
    const result = await runTool(tool, {}, { ...options, maxOutputChars: 200 });
    expect(result.truncated).toBe(true);
    expect(result.text.length).toBeLessThanOrEqual(200);
    expect(result.text).toMatch(/Output cut: showing 200 of 5000 characters/);
  });

  it("measures the call's duration with the clock it is given", async () => {
    let t = 1_000;
    const result = await runTool(echoTool, { notePath: "a" }, { ...options, now: () => (t += 5) });
    expect(result.durationMs).toBe(5);
  });
});

describe("truncateForModel", () => {
  it("leaves short text alone", () => {
    expect(truncateForModel("abc", 3)).toEqual({ text: "abc", truncated: false });
  });
});

describe("describeSchemaError", () => {
  it("names nested fields with dots", () => {
    const schema = z.object({ range: z.object({ startTime: z.number() }) });
    const parsed = schema.safeParse({ range: { startTime: "soon" } });
    if (parsed.success) throw new Error("expected a failure");
    expect(describeSchemaError("t", parsed.error)).toContain("`range.startTime`");
  });
});
