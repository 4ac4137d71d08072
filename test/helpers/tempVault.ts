import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** A real folder of notes for a test: `files` maps vault-relative paths to their text (or bytes: an image). */
export interface TempVault {
  root: string;
  /** Writes text, or bytes (a PDF). */
  write(path: string, content: string | Uint8Array): string;
  remove(): void;
}

export function makeTempVault(files: Record<string, string | Uint8Array> = {}, prefix = "vault-copilot-"): TempVault {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const write = (path: string, content: string | Uint8Array): string => {
    const absolute = join(root, path);
    mkdirSync(dirname(absolute), { recursive: true });
    writeFileSync(absolute, content);
    return absolute;
  };
  for (const [path, text] of Object.entries(files)) write(path, text);
  return { root, write, remove: () => rmSync(root, { recursive: true, force: true }) };
}
