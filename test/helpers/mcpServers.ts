import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { dirname, join } from "node:path";

/** The real MCP servers from npm that the tests connect to. */
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));
export const EVERYTHING_SERVER = join(packageDir("@modelcontextprotocol/server-everything"), "dist/index.js");
export const FILESYSTEM_SERVER = join(packageDir("@modelcontextprotocol/server-filesystem"), "dist/index.js");

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

/** server-everything in Streamable HTTP mode on 127.0.0.1; resolves once it listens. */
export async function startEverythingHttp(): Promise<{ url: string; process: ChildProcess; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING_SERVER, "streamableHttp"], {
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server-everything did not start within 20 s")), 20_000);
    const onData = (chunk: Buffer) => {
      if (chunk.toString().includes("listening on port")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stderr?.on("data", onData);
    child.stdout?.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited with ${code}`));
    });
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return { url: `http://127.0.0.1:${port}/mcp`, process: child, stop };
}
