/**
 * The notes named by what was dropped on the chat: Obsidian's file explorer drags `[[Note]]`
 * links (one per line, with any heading or alias), and `obsidian://open?vault=…&file=…` URLs
 * come from other windows. Returns the link texts, to be resolved by the caller (the view asks
 * Obsidian's link resolver, which knows aliases and shortest paths).
 */
export function droppedNoteLinks(text: string): string[] {
  const links: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    const link = /^\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]$/.exec(trimmed)?.[1] ?? obsidianUrlFile(trimmed);
    if (link && !links.includes(link)) links.push(link);
  }
  return links;
}

/** The `file` of an `obsidian://open?vault=…&file=…` link. */
function obsidianUrlFile(text: string): string | null {
  if (!text.startsWith("obsidian://")) return null;
  try {
    return new URL(text).searchParams.get("file");
  } catch {
    return null;
  }
}
