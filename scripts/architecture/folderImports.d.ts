/** How a file imports another: run when loaded, erased at build, or loaded when the code runs. */
export type ImportKind = "value" | "type" | "lazy";

export interface ImportFound {
  specifier: string;
  kind: ImportKind;
}

export interface FileImport {
  /** The importing file, repo-relative ("src/tools/readNote.ts"). */
  from: string;
  /** The imported module, repo-relative, without its extension ("src/vault/VaultPort"). */
  to: string;
  kind: ImportKind;
  fromFolder: string;
  toFolder: string;
}

export interface FolderArrow {
  from: string;
  to: string;
  value: number;
  type: number;
  lazy: number;
  /** "src/a/x.ts -> src/b/y (kind)" for each import behind the arrow. */
  files: string[];
}

export interface FolderCycle {
  /** The folders of one strongly connected group, sorted. */
  folders: string[];
  /** The arrows between them. */
  arrows: FolderArrow[];
}

/** Every source file under `folder` (default "src"), tests and declaration files left out. */
export function sourceFiles(root: string, folder?: string): string[];
/** The imports of one file's text (re-exports and `import("x")` types included). */
export function importsOf(path: string, text: string): ImportFound[];
/** "src/settings/x.ts" -> "settings"; "src/main.ts" -> "main.ts". */
export function topFolderOf(path: string): string;
/** Every import from one file of src/ to another. */
export function fileImports(root: string): FileImport[];
/** The arrows between top folders, keyed "from -> to". */
export function folderArrows(root: string): Map<string, FolderArrow>;
/** The groups of two or more folders that reach each other. */
export function folderCycles(arrows: Map<string, FolderArrow>): FolderCycle[];
/** A shortest circle through a group's folders: ["a", "b", "a"]. */
export function shortestCycle(group: FolderCycle): string[];
