import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildSync } from "esbuild";
import { makeTempVault, type TempVault } from "../../test/helpers/tempVault";

/**
 * Two real processes (two CLIs on one vault) edit one note and append to one data file at the
 * same time: every edit and every entry must be there afterwards.
 */
const WRITER = `
import { FsVault } from ${JSON.stringify(resolve(__dirname, "FsVault"))};
import { FsDataStore } from ${JSON.stringify(resolve(__dirname, "fsDataStore"))};
async function main() {
  const [root, label, count] = process.argv.slice(2);
  const vault = new FsVault(root);
  const store = new FsDataStore(root + "/data");
  for (let i = 0; i < Number(count); i++) {
    await vault.process("Shared.md", (text) => text + label + i + "\\n");
    await store.update("history.json", (current) => JSON.stringify([...(current === null ? [] : JSON.parse(current)), label + i]));
  }
}
main().catch((error) => { console.error(error); process.exit(1); });
`;

let scratch: string;
let writer: string;
let temp: TempVault;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "vault-copilot-writer-"));
  writeFileSync(join(scratch, "writer.ts"), WRITER);
  writer = join(scratch, "writer.js");
  buildSync({ entryPoints: [join(scratch, "writer.ts")], bundle: true, platform: "node", format: "cjs", outfile: writer, logLevel: "error" });
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
beforeEach(() => {
  temp = makeTempVault({ "Shared.md": "# Shared\n" });
});
afterEach(() => temp.remove());

function runWriter(label: string, count: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [writer, temp.root, label, String(count)], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => done({ code, stderr }));
  });
}

it("two processes editing one note and appending to one data file lose nothing", async () => {
  const results = await Promise.all([runWriter("a", 40), runWriter("b", 40)]);
  expect(results).toEqual([
    { code: 0, stderr: "" },
    { code: 0, stderr: "" },
  ]);
  const lines = readFileSync(join(temp.root, "Shared.md"), "utf8").trim().split("\n").slice(1).sort();
  const expected = [...Array.from({ length: 40 }, (_, i) => `a${i}`), ...Array.from({ length: 40 }, (_, i) => `b${i}`)].sort();
  expect(lines).toEqual(expected);
  expect((JSON.parse(readFileSync(join(temp.root, "data", "history.json"), "utf8")) as string[]).sort()).toEqual(expected);
}, 60_000);
