import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * Every file and folder under `root`, by root-relative path, with each file's bytes read both as
 * Latin-1 and as UTF-8 (so a search finds a value however it was encoded); folders map to "".
 * For tests that look for a value anywhere in a vault, names included.
 */
export function vaultContents(root: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(root, relative), { withFileTypes: true })) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        found.set(path, "");
        walk(path);
      } else {
        const bytes = readFileSync(join(root, path));
        found.set(path, bytes.toString("latin1") + bytes.toString("utf8"));
      }
    }
  };
  walk("");
  return found;
}
