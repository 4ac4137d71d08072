import type { VaultChange, VaultMirror } from "../obsidian/obsidian";
import { DEMO_HEADER } from "./nodeHttpShim";

/** A note as the demo server lists it from the folder on disk. */
export interface DiskNote {
  path: string;
  text: string;
  ctime: number;
  mtime: number;
}

/** A file besides notes (a PDF, a canvas, an image), its bytes as base64. */
export interface DiskFile {
  path: string;
  base64: string;
  ctime: number;
  mtime: number;
}

export interface DiskListing {
  folders: string[];
  notes: DiskNote[];
  files: DiskFile[];
}

/** The folder's notes, folders and the other files the plugin reads, as the page loads them at start. */
export async function loadListing(): Promise<DiskListing> {
  const response = await fetch("/api/notes");
  if (!response.ok) throw new Error(`The demo server did not list the vault (status ${response.status})`);
  return (await response.json()) as DiskListing;
}

/**
 * The vault's mirror on the demo page: each change goes to the server, which applies it to the
 * folder on disk; the vault's promise settles only once the server said it is done, so an edit the
 * chat calls applied is in the file. A refused change rejects with the server's reason.
 */
export const diskMirror: VaultMirror = async (change: VaultChange) => {
  const response = await fetch("/api/vault", {
    method: "POST",
    headers: { "content-type": "application/json", ...DEMO_HEADER },
    body: JSON.stringify(change),
  });
  if (response.ok) return;
  const reason = ((await response.json().catch(() => ({}))) as { error?: string }).error ?? `status ${response.status}`;
  throw new Error(`The demo server did not apply the ${change.type} of "${change.path}" to the folder: ${reason}`);
};
