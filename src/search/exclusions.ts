import { globMatcher, type GlobMatcher } from "./globMatcher";

/** The part of the search settings that says what stays out of the index. */
export interface ExclusionSettings {
  /** Folders, vault-relative ("Archive", "Templates/Old"): everything inside is left out. */
  excludedFolders: readonly string[];
  /**
   * Glob patterns: `*` any characters but "/", `**` any characters, `?` one character. A pattern
   * with a "/" is matched against the whole path ("Archive/**", "**\/drafts/*.md"); one without
   * against each folder and file name ("*.excalidraw.md", "private"). Case is ignored.
   */
  excludedPatterns: readonly string[];
}

/** A test for paths to leave out of the index. Blank entries are ignored. */
export function exclusionFilter(settings: ExclusionSettings): (path: string) => boolean {
  const folders = settings.excludedFolders
    .map((folder) => folder.trim().replace(/^\/+|\/+$/g, "").toLowerCase())
    .filter((folder) => folder.length > 0);
  const wholePath: GlobMatcher[] = [];
  const anyName: GlobMatcher[] = [];
  for (const raw of settings.excludedPatterns) {
    const pattern = raw.trim().replace(/^\/+/, "");
    if (pattern.length === 0) continue;
    (pattern.includes("/") ? wholePath : anyName).push(globMatcher(pattern));
  }
  return (path) => {
    const lower = path.toLowerCase();
    if (folders.some((folder) => lower.startsWith(`${folder}/`))) return true;
    if (wholePath.some((matches) => matches(path))) return true;
    return anyName.length > 0 && path.split("/").some((name) => anyName.some((matches) => matches(name)));
  };
}
