import { KeyedSerialQueue, SerialQueue } from "./serialQueue";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("SerialQueue", () => {
  it("runs one piece at a time, in order, and a failure does not block the next", async () => {
    const queue = new SerialQueue();
    const log: string[] = [];
    const piece = (name: string, fail = false) => async () => {
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
      if (fail) throw new Error(name);
      return name;
    };
    const results = await Promise.allSettled([queue.run(piece("a")), queue.run(piece("b", true)), queue.run(piece("c"))]);
    expect(log).toEqual(["start a", "end a", "start b", "end b", "start c", "end c"]);
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    await queue.idle();
  });
});

describe("KeyedSerialQueue", () => {
  it("serializes pieces of one key and lets other keys run alongside", async () => {
    const queue = new KeyedSerialQueue();
    const log: string[] = [];
    const piece = (name: string) => async () => {
      log.push(`start ${name}`);
      await tick();
      log.push(`end ${name}`);
    };
    await Promise.all([queue.run("x", piece("x1")), queue.run("y", piece("y1")), queue.run("x", piece("x2"))]);
    expect(log.indexOf("end x1")).toBeLessThan(log.indexOf("start x2"));
    expect(log.indexOf("start y1")).toBeLessThan(log.indexOf("end x1"));
  });
});
