// A vault nobody here wrote: the Markdown documentation that three projects ship inside their npm
// packages, fetched with `npm pack` at run time into .bench-data/ (git-ignored; never committed),
// laid out as <project>/<section>/<page>.md. Links are turned into their plain text, so that only
// what the pages say relates them. Sources and licences:
//   npm 10.9.2, docs/content/{commands,configuring-npm,using-npm}: Artistic License 2.0 (npm, Inc.)
//   fastify 4.29.1, docs/{Guides,Reference}: MIT (the Fastify team)
//   undici 6.29.1, docs/docs/{api,best-practices}: MIT (the Node.js project's undici contributors)
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";

interface DocsSource {
  /** What `npm pack` fetches, with its version pinned so runs compare. */
  spec: string;
  /** The vault's folder for this project. */
  project: string;
  /** Folders inside the package whose pages are taken; each is one section of the vault. */
  sections: Record<string, string>;
}

const SOURCES: DocsSource[] = [
  { spec: "npm@10.9.2", project: "npm", sections: { commands: "docs/content/commands", "configuring-npm": "docs/content/configuring-npm", "using-npm": "docs/content/using-npm" } },
  { spec: "fastify@4.29.1", project: "fastify", sections: { guides: "docs/Guides", reference: "docs/Reference" } },
  { spec: "undici@6.29.1", project: "undici", sections: { api: "docs/docs/api", "best-practices": "docs/docs/best-practices" } },
];
/** Bumped when the vault would come out differently, so an old one is made again. */
const LAYOUT_VERSION = 1;

export interface DocsVault {
  vault: string;
  /** Vault path -> its section ("npm/commands"). */
  sectionOf: Map<string, string>;
}

/** The docs vault under `root`, made on first use (needs the npm registry once). */
export function ensureDocsVault(root: string): DocsVault {
  const vault = join(root, "vault");
  const marker = join(root, "layout.json");
  const made = existsSync(marker) && (JSON.parse(readFileSync(marker, "utf8")) as { version: number }).version === LAYOUT_VERSION;
  if (!made) {
    rmSync(root, { recursive: true, force: true });
    mkdirSync(join(root, "packages"), { recursive: true });
    for (const source of SOURCES) {
      const packed = spawnSync("npm", ["pack", source.spec, "--silent", "--pack-destination", join(root, "packages")], { encoding: "utf8" });
      if (packed.status !== 0) throw new Error(`npm pack ${source.spec} failed: ${packed.stderr}`);
      const tarball = join(root, "packages", packed.stdout.trim().split("\n").pop() ?? "");
      const unpacked = join(root, "packages", source.project);
      mkdirSync(unpacked, { recursive: true });
      const untarred = spawnSync("tar", ["-xzf", tarball, "-C", unpacked, "--strip-components=1"], { encoding: "utf8" });
      if (untarred.status !== 0) throw new Error(`could not unpack ${tarball}: ${untarred.stderr}`);
      for (const [section, folder] of Object.entries(source.sections)) {
        for (const file of markdownFiles(join(unpacked, folder))) {
          const target = join(vault, source.project, section, relative(join(unpacked, folder), file));
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, linksAsText(readFileSync(file, "utf8")));
        }
      }
    }
    writeFileSync(marker, JSON.stringify({ version: LAYOUT_VERSION, sources: SOURCES.map((source) => source.spec) }));
  }
  const sectionOf = new Map<string, string>();
  for (const file of markdownFiles(vault)) {
    const path = relative(vault, file).split("\\").join("/");
    sectionOf.set(path, path.split("/").slice(0, 2).join("/"));
  }
  return { vault, sectionOf };
}

function markdownFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return /\.mdx?$/i.test(entry.name) ? [path] : [];
  });
}

/**
 * Links as their plain text: `[text](target)` and `[text][ref]` give "text", `[[target|text]]`
 * gives "text", `<https://…>` and reference definitions go. What a page says stays; where it
 * points does not.
 */
export function linksAsText(text: string): string {
  return text
    .replace(/^\s{0,3}\[[^\]\n]+\]:\s+\S+.*$/gm, "")
    .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, "$1")
    .replace(/\[([^\]\n]+)\]\[[^\]\n]*\]/g, "$1")
    .replace(/\[\[([^\]|\n]+)\|([^\]\n]+)\]\]/g, "$2")
    .replace(/\[\[([^\]\n]+)\]\]/g, "$1")
    .replace(/<(https?:\/\/[^>\s]+)>/g, "");
}
