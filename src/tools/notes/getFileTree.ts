import { z } from "zod";
import { ToolFailureError } from "../../errorMessage";
import { defuseToolText } from "../../context/escapeXml";
import { isExactVaultPath, toVaultPath } from "../../vault/vaultPath";
import type { VaultPort } from "../../vault/VaultPort";
import type { BuiltinToolEntry } from "../BuiltinToolEntry";
import { requireVault } from "../requireVault";
import type { SimpleTool } from "../SimpleTool";

const schema = z.object({
  folder: z
    .string()
    .optional()
    .describe('A folder to list, e.g. "Projects/2026". Leave out for the whole vault.'),
  maxEntries: z
    .number()
    .int()
    .min(10)
    .max(5000)
    .optional()
    .describe("Most lines to show (default 300). Deeper folders are collapsed to their file counts past this."),
});

export interface FileTreeResult {
  folder: string;
  tree: string;
  totalFiles: number;
  totalFolders: number;
  /** True when some folders are shown collapsed or some entries left out. */
  truncated: boolean;
}

export const DEFAULT_TREE_ENTRIES = 300;

export const getFileTreeTool: BuiltinToolEntry = {
  metadata: {
    id: "getFileTree",
    displayName: "File tree",
    description: "Lets the model see the folders and files of your vault.",
    category: "file",
    enabledByDefault: true,
    requiresVault: true,
    customPromptInstructions:
      "Use getFileTree to learn how the vault is organized or to find where a note lives; pass `folder` to look inside " +
      "a collapsed folder. Prefer localSearch to find notes about a topic.",
    wording: { pending: "Would like to look at the vault's folders", running: "Looking at the vault's folders", done: "Looked at the vault's folders" },
  },
  create: (dependencies): SimpleTool<z.infer<typeof schema>, FileTreeResult> => ({
    name: "getFileTree",
    description: "Lists the vault's folders and files as an indented tree (folders end in \"/\"), optionally under one folder, with a size cap.",
    schema,
    isReadOnly: true,
    func: ({ folder, maxEntries }) => getFileTree(requireVault(dependencies), folder, maxEntries ?? DEFAULT_TREE_ENTRIES),
    // File and folder names are the user's text: defused as every tool's note text is.
    formatForModel: (result) => defuseToolText(result.tree),
  }),
};

interface FolderNode {
  name: string;
  folders: Map<string, FolderNode>;
  files: string[];
  /** Files in this folder and below. */
  fileCount: number;
}

export async function getFileTree(vault: VaultPort, folderInput: string | undefined, maxEntries: number): Promise<FileTreeResult> {
  const folder = folderInput && folderInput.trim() && folderInput.trim() !== "/" ? toVaultPath(folderInput, vault.configDir) : "";
  const prefix = folder ? `${folder}/` : "";
  const listed = (await vault.listFiles()).filter((path) => path.startsWith(prefix));
  // A name the path rule refuses (a line break, an escape character) could be neither opened nor
  // shown on one line: it is counted, not listed.
  const files = listed.filter((path) => isExactVaultPath(path, vault.configDir)).map((path) => path.slice(prefix.length));
  const unopenable = listed.length - files.length;
  if (folder && files.length === 0) {
    throw new ToolFailureError(`There is no folder "${folder}" with files in it. Call getFileTree without a folder to see the vault.`, { kind: "no-folder", values: { folder } });
  }

  const root: FolderNode = { name: folder || "/", folders: new Map(), files: [], fileCount: 0 };
  let totalFolders = 0;
  for (const path of files) {
    const segments = path.split("/");
    const fileName = segments.pop() ?? path;
    let node = root;
    node.fileCount++;
    for (const segment of segments) {
      let child = node.folders.get(segment);
      if (!child) {
        child = { name: segment, folders: new Map(), files: [], fileCount: 0 };
        node.folders.set(segment, child);
        totalFolders++;
      }
      child.fileCount++;
      node = child;
    }
    node.files.push(fileName);
  }

  // The deepest level that fits: every entry down to it is shown, folders below are collapsed.
  const entriesByDepth: number[] = [];
  const countDepths = (node: FolderNode, depth: number) => {
    entriesByDepth[depth] = (entriesByDepth[depth] ?? 0) + node.folders.size + node.files.length;
    for (const child of node.folders.values()) countDepths(child, depth + 1);
  };
  countDepths(root, 0);
  let shownDepth = -1;
  let running = 0;
  for (const count of entriesByDepth) {
    if (running + count > maxEntries) break;
    running += count;
    shownDepth++;
  }

  const lines: string[] = [`${folder ? `${folder}/` : "Vault"} (${plural(files.length, "file")}, ${plural(totalFolders, "folder")})`];
  let truncated = shownDepth < entriesByDepth.length - 1;
  const render = (node: FolderNode, depth: number) => {
    const indent = "  ".repeat(depth + 1);
    for (const child of [...node.folders.values()].sort(byName)) {
      if (depth >= shownDepth) {
        lines.push(`${indent}${child.name}/ (${countLabel(child)})`);
      } else {
        lines.push(`${indent}${child.name}/`);
        render(child, depth + 1);
      }
    }
    if (depth <= shownDepth) for (const file of [...node.files].sort(compareNames)) lines.push(`${indent}${file}`);
  };
  if (shownDepth >= 0) render(root, 0);
  else {
    // Even the top level does not fit: list as much of it as the cap allows.
    const top = [...[...root.folders.values()].sort(byName).map((f) => `  ${f.name}/ (${countLabel(f)})`), ...[...root.files].sort(compareNames).map((f) => `  ${f}`)];
    lines.push(...top.slice(0, maxEntries));
    if (top.length > maxEntries) lines.push(`  ... and ${top.length - maxEntries} more entries`);
    truncated = true;
  }
  if (truncated) lines.push("(Collapsed folders show their file counts; call getFileTree with `folder` to see inside one.)");
  if (unopenable > 0) lines.push(`(${plural(unopenable, "file")} whose names no tool can open ${unopenable === 1 ? "is" : "are"} not shown.)`);
  return { folder: folder || "/", tree: lines.join("\n"), totalFiles: files.length, totalFolders, truncated };
}

function countLabel(node: FolderNode): string {
  return node.folders.size > 0 ? `${plural(node.fileCount, "file")}, ${plural(node.folders.size, "folder")}` : plural(node.fileCount, "file");
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

function byName(a: FolderNode, b: FolderNode): number {
  return compareNames(a.name, b.name);
}

function compareNames(a: string, b: string): number {
  return a.localeCompare(b, undefined, { numeric: true, sensitivity: "base" });
}
