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
  const wholePath: RegExp[] = [];
  const anyName: RegExp[] = [];
  for (const raw of settings.excludedPatterns) {
    const pattern = raw.trim().replace(/^\/+/, "");
    if (pattern.length === 0) continue;
    (pattern.includes("/") ? wholePath : anyName).push(globToRegExp(pattern));
  }
  return (path) => {
    const lower = path.toLowerCase();
    if (folders.some((folder) => lower.startsWith(`${folder}/`))) return true;
    if (wholePath.some((pattern) => pattern.test(path))) return true;
    return anyName.length > 0 && path.split("/").some((name) => anyName.some((pattern) => pattern.test(name)));
  };
}

/** A glob as an anchored, case-insensitive regular expression. */
export function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let index = 0; index < glob.length; index++) {
    const character = glob[index] ?? "";
    if (character === "*") {
      if (glob[index + 1] === "*") {
        index++;
        // "**/" also matches no folder at all: "**/x.md" matches "x.md".
        if (glob[index + 1] === "/") {
          index++;
          source += "(?:.*/)?";
        } else {
          source += ".*";
        }
      } else {
        source += "[^/]*";
      }
    } else if (character === "?") {
      source += "[^/]";
    } else {
      source += character.replace(/[.+^${}()|[\]\\]/g, "\\$&");
    }
  }
  // A pattern naming a folder ("Archive/**" or "Archive/") covers what is inside it.
  return new RegExp(`^${source}${glob.endsWith("/") ? ".*" : ""}$`, "i");
}
