import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

export const repoRoot = resolve(__dirname, "../..");

/** A temporary folder holding copies of the repository's files named (paths relative to its root). */
export interface ReleaseCopy {
  root: string;
  readJson(name: string): Record<string, unknown>;
  writeJson(name: string, value: unknown): void;
  remove(): void;
}

export function copyReleaseFiles(names: string[]): ReleaseCopy {
  const root = mkdtempSync(join(tmpdir(), "vault-copilot-release-"));
  for (const name of names) {
    mkdirSync(dirname(join(root, name)), { recursive: true });
    copyFileSync(join(repoRoot, name), join(root, name));
  }
  return {
    root,
    readJson: (name) => JSON.parse(readFileSync(join(root, name), "utf8")) as Record<string, unknown>,
    writeJson: (name, value) => writeFileSync(join(root, name), `${JSON.stringify(value, null, 2)}\n`),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Runs a command to its end; status, stdout and stderr. */
export function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): { status: number; stdout: string; stderr: string } {
  const result = spawnSync(command, args, { cwd, encoding: "utf8", env: { ...process.env, ...env }, timeout: 120_000 });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
