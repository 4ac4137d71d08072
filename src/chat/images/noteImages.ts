import { NoteLookup } from "../../tools/notes/noteLookup";
import type { VaultPort } from "../../vault/VaultPort";

/** The file endings read as images: what every provider takes (PNG, JPEG, WebP, GIF). */
const IMAGE_EXTENSIONS = new Set(["png", "jpg", "jpeg", "webp", "gif"]);

export function isImagePath(path: string): boolean {
  const dot = path.lastIndexOf(".");
  return dot > path.lastIndexOf("/") && IMAGE_EXTENSIONS.has(path.slice(dot + 1).toLowerCase());
}

/**
 * The vault images a note embeds (`![[photo.png]]`, `![](img/chart.jpg)`), resolved as Obsidian
 * resolves links (a Markdown link relative to the note first, a bare name anywhere in the vault),
 * in the order they appear, each once. Remote images (`![](https://…)`) are not among them: nothing
 * is fetched for a note's images.
 */
export async function embeddedImages(vault: VaultPort, notePath: string): Promise<string[]> {
  const metadata = await vault.getMetadata(notePath);
  const embeds = (metadata?.links ?? []).filter((link) => link.embed && isImagePath(link.link));
  if (embeds.length === 0) return [];
  const lookup = new NoteLookup((await vault.listFiles()).filter(isImagePath), vault.configDir);
  const found: string[] = [];
  for (const link of embeds) {
    const path = lookup.resolveLink(link, notePath);
    if (path && !found.includes(path)) found.push(path);
  }
  return found;
}
