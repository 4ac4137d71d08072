/**
 * YouTube video ids in free text: watch?v=, youtu.be/, /shorts/, /embed/, /live/ and /v/ links
 * (with or without scheme, www. or m.), or the text being a bare 11-character id. In order of
 * appearance, without repeats.
 */
const VIDEO_ID = "[A-Za-z0-9_-]{11}";
const LINK_PATTERNS = [
  new RegExp(`(?:youtube(?:-nocookie)?\\.com/(?:watch\\?(?:[^\\s#]*?&)?v=|shorts/|embed/|live/|v/))(${VIDEO_ID})(?![A-Za-z0-9_-])`, "g"),
  new RegExp(`youtu\\.be/(${VIDEO_ID})(?![A-Za-z0-9_-])`, "g"),
];

export function findYouTubeVideoIds(text: string): string[] {
  const found: { id: string; at: number }[] = [];
  for (const pattern of LINK_PATTERNS) {
    for (const match of text.matchAll(pattern)) found.push({ id: match[1] ?? "", at: match.index });
  }
  const trimmed = text.trim();
  if (found.length === 0 && new RegExp(`^${VIDEO_ID}$`).test(trimmed)) return [trimmed];
  return [...new Set(found.sort((a, b) => a.at - b.at).map((entry) => entry.id))];
}
