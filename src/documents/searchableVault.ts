import type { VaultPort } from "../vault/VaultPort";
import { documentKind, isDocumentFile } from "./documentKinds";
import type { DocumentReader } from "./DocumentReader";
import { indexTextOf } from "./documentText";

/**
 * The vault as search reads it (the note index, the embeddings, related notes): its notes are
 * the Markdown notes, PDFs and canvases, and a PDF's or canvas's text is what `DocumentReader`
 * gives (`indexTextOf`: a PDF's pages with a page break between them). Only search gets this
 * view: the tools that write keep the plain vault, so nothing writes to a PDF or a canvas as text.
 */
export function searchableVault(vault: VaultPort, documents: DocumentReader): VaultPort {
  return {
    get configDir() {
      return vault.configDir;
    },
    async listNotes() {
      const files = (await vault.listFiles()).filter((path) => documentKind(path) !== null);
      await documents.keepOnly(files.filter((path) => documentKind(path) === "pdf"));
      return files;
    },
    listFiles: () => vault.listFiles(),
    stat: (path) => vault.stat(path),
    read: async (path, options) => (isDocumentFile(path) ? indexTextOf(await documents.read(path)) : vault.read(path, options)),
    readBinary: (path) => vault.readBinary(path),
    create: (path, content) => vault.create(path, content),
    process: (path, transform) => vault.process(path, transform),
    rename: (path, newPath) => vault.rename(path, newPath),
    trash: (path) => vault.trash(path),
    // A PDF or canvas has no frontmatter, tags or headings of its own.
    getMetadata: async (path) => (isDocumentFile(path) ? ((await vault.stat(path)) ? { frontmatter: {}, tags: [], aliases: [], links: [], headings: [] } : null) : vault.getMetadata(path)),
    onChange: (listener) => vault.onChange(listener),
  };
}
