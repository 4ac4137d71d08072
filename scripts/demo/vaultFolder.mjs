// The demo vault's folder on disk: what the page loads at start, and the changes the page's vault
// makes, applied inside the folder only. Entries whose name starts with "." (the config folder
// .obsidian, .trash, .git) are neither loaded nor written: the page keeps its config in memory.
import { existsSync, realpathSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** A refused or failed change, with the HTTP status the server answers. */
export class VaultFolderError extends Error {
  constructor(message, status) {
    super(message);
    this.name = "VaultFolderError";
    this.status = status;
  }
}

/** Files besides notes that the plugin reads (PDFs, canvases, images): loaded as bytes. */
const READ_AS_BYTES = /\.(pdf|canvas|png|jpe?g|webp|gif)$/i;

/**
 * Every Markdown note and folder under `root`, vault-relative with "/" separators, and the files
 * the plugin reads besides notes (PDFs, canvases, images) as base64.
 */
export async function listVault(root) {
  const notes = [];
  const folders = [];
  const files = [];
  async function walk(folder) {
    for (const entry of await readdir(join(root, folder), { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const path = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        folders.push(path);
        await walk(path);
      } else if (entry.isFile() && (entry.name.toLowerCase().endsWith(".md") || READ_AS_BYTES.test(entry.name))) {
        const absolute = join(root, path);
        const info = await stat(absolute);
        const times = { ctime: Math.round(info.birthtimeMs || info.ctimeMs), mtime: Math.round(info.mtimeMs) };
        if (entry.name.toLowerCase().endsWith(".md")) notes.push({ path, text: await readFile(absolute, "utf8"), ...times });
        else files.push({ path, base64: (await readFile(absolute)).toString("base64"), ...times });
      }
    }
  }
  await walk("");
  return { folders, notes, files };
}

/**
 * The absolute path of a vault-relative `path`, refused (403) when it would leave `root`: absolute
 * paths, ".." segments, hidden entries, and symbolic links that lead out of the folder.
 */
export function resolveInside(root, path) {
  if (typeof path !== "string" || path === "" || path.includes("\0")) throw new VaultFolderError("A vault path is needed", 400);
  const segments = path.split(/[\\/]/);
  if (isAbsolute(path) || segments.some((segment) => segment === ".." || segment === "." || segment === "")) {
    throw new VaultFolderError(`"${path}" leaves the vault folder; the demo writes only inside it`, 403);
  }
  if (segments.some((segment) => segment.startsWith("."))) {
    throw new VaultFolderError(`"${path}" is a hidden entry (like the config folder); the demo keeps those in memory`, 403);
  }
  const absolute = resolve(root, ...segments);
  const inside = (candidate, base) => {
    const rest = relative(base, candidate);
    return rest === "" || (!rest.startsWith(`..${sep}`) && rest !== ".." && !isAbsolute(rest));
  };
  if (!inside(absolute, root)) throw new VaultFolderError(`"${path}" leaves the vault folder`, 403);
  // A symbolic link inside the folder may point out of it: check where the nearest existing part really is.
  let existing = absolute;
  while (!existsSync(existing)) existing = dirname(existing);
  if (!inside(realpathSync(existing), realpathSync(root))) throw new VaultFolderError(`"${path}" leads out of the vault folder through a link`, 403);
  return absolute;
}

/** Applies one change of the page's vault (see VaultChange in test/obsidian/vault.ts) to the folder. */
export async function applyChange(root, change) {
  if (!change || typeof change !== "object") throw new VaultFolderError("The change must be a JSON object", 400);
  const target = resolveInside(root, change.path);
  switch (change.type) {
    case "write": {
      if (typeof change.data !== "string") throw new VaultFolderError("A write needs its text in `data`", 400);
      await mkdir(dirname(target), { recursive: true });
      // Written beside the note and renamed over it, so an editor never sees half a note.
      const temporary = `${target}.vault-copilot-demo-${process.pid}.tmp`;
      await writeFile(temporary, change.data, "utf8");
      await rename(temporary, target);
      return;
    }
    case "folder":
      await mkdir(target, { recursive: true });
      return;
    case "delete":
      await rm(target, { recursive: true, force: true });
      return;
    case "trash": {
      // Into the vault's .trash folder, as Obsidian's "Move to Obsidian trash" does: nothing is lost.
      const trashed = join(root, ".trash", relative(root, target));
      await mkdir(dirname(trashed), { recursive: true });
      await rename(target, existsSync(trashed) ? `${trashed}.${Date.now()}` : trashed);
      return;
    }
    case "rename": {
      const destination = resolveInside(root, change.newPath);
      if (existsSync(destination)) throw new VaultFolderError(`"${change.newPath}" already exists`, 409);
      await mkdir(dirname(destination), { recursive: true });
      await rename(target, destination);
      return;
    }
    default:
      throw new VaultFolderError(`Unknown change type "${String(change.type)}"`, 400);
  }
}
