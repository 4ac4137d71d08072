/** Reading the fields Obsidian gives meaning to, whatever shape a user wrote them in. */

/** `tags`/`tag` as "#tag" strings: a list, or one string separated by commas or spaces. */
export function frontmatterTags(frontmatter: Record<string, unknown>): string[] {
  return listField(frontmatter.tags ?? frontmatter.tag, /[,\s]+/).map((tag) => (tag.startsWith("#") ? tag : `#${tag}`));
}

/** `aliases`/`alias`: a list, or one string separated by commas. */
export function frontmatterAliases(frontmatter: Record<string, unknown>): string[] {
  return listField(frontmatter.aliases ?? frontmatter.alias, /,/);
}

function listField(value: unknown, separator: RegExp): string[] {
  const items: unknown[] = Array.isArray(value) ? value : typeof value === "string" ? value.split(separator) : [];
  return items
    .filter((item): item is string | number => typeof item === "string" || typeof item === "number")
    .map((item) => String(item).trim())
    .filter((item) => item.length > 0);
}
