import type { CachedMetadata, Pos } from "obsidian";
import { parseMarkdownMetadata } from "../../src/vault/markdownMetadata";
import type { App, TAbstractFile } from "../obsidian/obsidian";
import { TFile } from "../obsidian/obsidian";

/** Where the double does not know a position: the start of the line, or of the note. */
function at(line = 0): Pos {
  const location = { line, col: 0, offset: 0 };
  return { start: location, end: location };
}

/**
 * What Obsidian's metadata cache would report for a note, as far as the plugin reads it (tags,
 * frontmatter, links, embeds, headings), parsed with the CLI's own reader of Markdown metadata.
 * The double parses nothing itself, so the demo page fills its cache with this.
 */
export function cachedMetadataOf(text: string): CachedMetadata {
  const metadata = parseMarkdownMetadata(text);
  const link = (entry: { link: string; original: string }) => ({ link: entry.link, original: entry.original, displayText: entry.link, position: at() });
  return {
    frontmatter: Object.keys(metadata.frontmatter).length > 0 ? metadata.frontmatter : undefined,
    tags: metadata.tags.map((tag) => ({ tag, position: at() })),
    links: metadata.links.filter((entry) => !entry.embed).map(link),
    embeds: metadata.links.filter((entry) => entry.embed).map(link),
    headings: metadata.headings.map((heading) => ({ heading: heading.heading, level: heading.level, position: at(heading.line) })),
  };
}

/** Keeps the app's metadata cache in step with the notes, as Obsidian's indexer does. */
export function keepMetadataCurrent(app: App): void {
  const update = (entry: TAbstractFile) => {
    if (!(entry instanceof TFile) || entry.extension !== "md") return;
    void app.vault.cachedRead(entry).then((text) => app.metadataCache.setFileCache(entry.path, cachedMetadataOf(text)));
  };
  for (const file of app.vault.getMarkdownFiles()) update(file);
  app.vault.on("create", (entry) => update(entry as TAbstractFile));
  app.vault.on("modify", (entry) => update(entry as TAbstractFile));
}
