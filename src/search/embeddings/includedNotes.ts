import { exclusionFilter, type ExclusionSettings } from "../exclusions";

export interface InclusionSettings extends ExclusionSettings {
  /** Folders whose notes alone are embedded; empty: the whole vault. */
  includeFolders: readonly string[];
}

/**
 * Which notes may be embedded (their text sent to the embeddings server): inside one of the
 * include-only folders when there are any, and never an excluded one.
 */
export function inclusionFilter(settings: InclusionSettings): (path: string) => boolean {
  const excluded = exclusionFilter(settings);
  const folders = settings.includeFolders
    .map((folder) => folder.trim().replace(/^\/+|\/+$/g, "").toLowerCase())
    .filter((folder) => folder.length > 0);
  return (path) => {
    if (excluded(path)) return false;
    const lower = path.toLowerCase();
    return folders.length === 0 || folders.some((folder) => lower.startsWith(`${folder}/`));
  };
}
