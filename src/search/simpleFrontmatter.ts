/**
 * Frontmatter in the plain subset of YAML that nearly every note uses (`key: value`, `key: [a, b]`,
 * `key:` followed by `- item` lines, quoted strings, comments), read without a YAML parser:
 * indexing a vault parses thousands of blocks, and a full parser costs ten times as much for
 * them. Anything outside the subset (nested maps, multi-line strings, anchors, escapes) gives
 * `undefined`, and the caller uses the full parser.
 */
export function parseSimpleFrontmatter(block: string): Record<string, unknown> | undefined {
  const result: Record<string, unknown> = {};
  const valueless = new Set<string>();
  let listKey: string | undefined;
  let itemIndent: number | undefined;
  for (const rawLine of block.split(/\r?\n/)) {
    const line = rawLine.trimEnd();
    if (line.trim() === "" || line.trimStart().startsWith("#")) continue;
    const item = /^(\s*)- (.*)$|^(\s*)-$/.exec(line);
    if (item) {
      const indent = (item[1] ?? item[3] ?? "").length;
      if (listKey === undefined || (itemIndent !== undefined && indent !== itemIndent)) return undefined;
      itemIndent = indent;
      valueless.delete(listKey);
      const value = scalar((item[2] ?? "").trim());
      if (value === undefined) return undefined;
      (result[listKey] as unknown[]).push(value);
      continue;
    }
    const entry = /^([A-Za-z0-9_][\w .-]*?):(?: (.*))?$/.exec(line);
    if (!entry) return undefined;
    const key = entry[1] ?? "";
    const text = (entry[2] ?? "").trim();
    itemIndent = undefined;
    if (text === "") {
      result[key] = [];
      valueless.add(key);
      listKey = key;
      continue;
    }
    listKey = undefined;
    const value = text.startsWith("[") ? flowList(text) : scalar(text);
    if (value === undefined) return undefined;
    result[key] = value;
  }
  // A key with neither a value nor items is null in YAML.
  for (const key of valueless) result[key] = null;
  return result;
}

function flowList(text: string): unknown[] | undefined {
  const inner = /^\[(.*)\]$/.exec(text)?.[1];
  if (inner === undefined || /[[\]{}]/.test(inner)) return undefined;
  if (inner.trim() === "") return [];
  const items: unknown[] = [];
  for (const part of inner.split(",")) {
    const value = scalar(part.trim());
    if (value === undefined) return undefined;
    items.push(value);
  }
  return items;
}

/** A plain or quoted scalar; undefined for anything YAML might read differently. */
function scalar(text: string): string | number | boolean | null | undefined {
  if (text.startsWith('"')) return /^"([^"\\]*)"$/.exec(text)?.[1];
  if (text.startsWith("'")) return /^'([^']*)'$/.exec(text)?.[1];
  if (text === "" || /^[&*!|>%@`{}[\],?#-]/.test(text) || text.includes(": ") || text.includes(" #") || text.endsWith(":")) {
    return text === "" ? null : undefined;
  }
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (/^(true|false)$/i.test(text)) return text.toLowerCase() === "true";
  if (/^(null|~)$/i.test(text)) return null;
  return text;
}
