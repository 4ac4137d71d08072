import { spawn } from "node:child_process";

/**
 * Runs `node <args>` and kills it with SIGKILL (nothing of it runs after) once `killNow` says so,
 * asked every `pollMs` with the milliseconds since the start; resolves when the process has exited
 * (killed, or ended on its own first).
 */
export function runKilledWhen(args: readonly string[], killNow: (elapsedMs: number) => boolean, pollMs: number): Promise<void> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...args], { stdio: "ignore" });
    const poll = setInterval(() => {
      if (!killNow(Date.now() - started)) return;
      child.kill("SIGKILL");
      clearInterval(poll);
    }, pollMs);
    child.on("exit", () => {
      clearInterval(poll);
      resolve();
    });
  });
}
