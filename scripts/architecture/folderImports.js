// The imports between the top folders of src/, read with TypeScript's own parser, shared by
// test/architecture/folderCycles.test.ts and test/architecture/dependencyRules.test.ts.
// `node scripts/architecture/folderImports.js` prints every arrow (value and type imports
// counted apart) and the folder-level cycles.
//
// A "top folder" is a directory right under src/ (`settings`, `tools`, …); a file right under
// src/ is a node of its own (`main.ts`, `constants.ts`). Tests (`*.test.ts(x)`) are left out:
// they may reach across folders to set things up, and the bundles never contain them.

const { readdirSync, readFileSync } = require("node:fs");
const { join, posix } = require("node:path");
const ts = require("typescript");

/** Every source file under `folder` (repo-relative, "/"-separated), tests left out. */
function sourceFiles(root, folder = "src") {
  return readdirSync(join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(root, path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

/** True when every binding an import or export brings in is a type (TypeScript erases it). */
function isTypeOnly(statement) {
  if (ts.isImportDeclaration(statement)) {
    const clause = statement.importClause;
    if (clause === undefined) return false; // `import "x"` runs x
    if (clause.isTypeOnly) return true;
    if (clause.name !== undefined) return false;
    const bindings = clause.namedBindings;
    return bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
  }
  if (statement.isTypeOnly) return true;
  const clause = statement.exportClause;
  return clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly);
}

/**
 * The imports of one file: `{ specifier, kind }` with kind "value", "type" (erased at build) or
 * "lazy" (a dynamic `import()`, loaded when the code runs). `import("x").Name` in a type counts
 * as "type". Re-exports (`export … from`) count like imports.
 */
function importsOf(path, text) {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, path.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push({ specifier: node.moduleSpecifier.text, kind: isTypeOnly(node) ? "type" : "value" });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument !== undefined && ts.isStringLiteralLike(argument)) found.push({ specifier: argument.text, kind: "lazy" });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push({ specifier: node.argument.literal.text, kind: "type" });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** "src/settings/x.ts" -> "settings"; "src/main.ts" -> "main.ts". */
function topFolderOf(path) {
  const parts = path.split("/");
  return parts.length > 2 ? parts[1] : parts[1].replace(/\.tsx?$/, ".ts");
}

/**
 * Every import from one file of src/ to another, resolved to the target's path without its
 * extension: `{ from, to, kind, fromFolder, toFolder }`. Packages (`obsidian`, `zod`) and files
 * outside src/ are not listed.
 */
function fileImports(root) {
  const rows = [];
  for (const file of sourceFiles(root)) {
    for (const { specifier, kind } of importsOf(file, readFileSync(join(root, file), "utf8"))) {
      if (!specifier.startsWith(".")) continue;
      const to = posix.normalize(posix.join(posix.dirname(file), specifier));
      if (!to.startsWith("src/")) continue;
      rows.push({ from: file, to, kind, fromFolder: topFolderOf(file), toFolder: topFolderOf(`${to}.ts`) });
    }
  }
  return rows;
}

/**
 * The arrows between top folders: a Map "from -> to" to { value, type, lazy, files } counts of
 * imports (files: "src/a/x.ts -> src/b/y" for each). Imports inside one folder are left out.
 */
function folderArrows(root) {
  const arrows = new Map();
  for (const row of fileImports(root)) {
    if (row.fromFolder === row.toFolder) continue;
    const key = `${row.fromFolder} -> ${row.toFolder}`;
    const arrow = arrows.get(key) ?? { from: row.fromFolder, to: row.toFolder, value: 0, type: 0, lazy: 0, files: [] };
    arrow[row.kind] += 1;
    arrow.files.push(`${row.from} -> ${row.to} (${row.kind})`);
    arrows.set(key, arrow);
  }
  return arrows;
}

/**
 * The folder-level cycles: the strongly connected groups of two or more folders in the graph of
 * `arrows` (each a sorted list of folder names), with for each group the arrows inside it.
 */
function folderCycles(arrows) {
  const next = new Map();
  for (const { from, to } of arrows.values()) {
    if (!next.has(from)) next.set(from, []);
    if (!next.has(to)) next.set(to, []);
    next.get(from).push(to);
  }
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  const connect = (folder) => {
    index.set(folder, counter);
    low.set(folder, counter);
    counter += 1;
    stack.push(folder);
    onStack.add(folder);
    for (const target of next.get(folder)) {
      if (!index.has(target)) {
        connect(target);
        low.set(folder, Math.min(low.get(folder), low.get(target)));
      } else if (onStack.has(target)) {
        low.set(folder, Math.min(low.get(folder), index.get(target)));
      }
    }
    if (low.get(folder) !== index.get(folder)) return;
    const group = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      group.push(member);
    } while (member !== folder);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const folder of [...next.keys()].sort()) if (!index.has(folder)) connect(folder);
  return groups.map((folders) => ({
    folders,
    arrows: [...arrows.values()].filter((arrow) => folders.includes(arrow.from) && folders.includes(arrow.to)),
  }));
}

/** A shortest cycle through the folders of `group` (a result of folderCycles): ["a", "b", "a"]. */
function shortestCycle(group) {
  let best = null;
  for (const start of group.folders) {
    // Breadth-first from start's targets back to start.
    const previous = new Map([[start, null]]);
    let frontier = [start];
    let found = false;
    while (frontier.length > 0 && !found) {
      const next = [];
      for (const folder of frontier) {
        for (const arrow of group.arrows.filter((candidate) => candidate.from === folder)) {
          if (arrow.to === start) {
            const path = [start];
            for (let step = folder; step !== null && step !== start; step = previous.get(step)) path.splice(1, 0, step);
            path.push(start);
            if (best === null || path.length < best.length) best = path;
            found = true;
            break;
          }
          if (!previous.has(arrow.to)) {
            previous.set(arrow.to, folder);
            next.push(arrow.to);
          }
        }
        if (found) break;
      }
      frontier = next;
    }
  }
  return best ?? [];
}

module.exports = { sourceFiles, importsOf, topFolderOf, fileImports, folderArrows, folderCycles, shortestCycle };

if (require.main === module) {
  const root = join(__dirname, "../..");
  const arrows = folderArrows(root);
  console.log("folder arrows (value / type / lazy imports):");
  for (const arrow of [...arrows.values()].sort((left, right) => left.from.localeCompare(right.from) || left.to.localeCompare(right.to))) {
    console.log(`  ${arrow.from} -> ${arrow.to}: ${arrow.value} / ${arrow.type} / ${arrow.lazy}`);
  }
  const cycles = folderCycles(arrows);
  console.log(cycles.length === 0 ? "no folder-level cycles" : `${cycles.length} folder-level cycle group(s):`);
  for (const cycle of cycles) {
    console.log(`  ${cycle.folders.join(", ")} (for one: ${shortestCycle(cycle).join(" -> ")})`);
    const pairs = cycle.arrows.filter((arrow) => arrow.from < arrow.to && cycle.arrows.some((back) => back.from === arrow.to && back.to === arrow.from));
    if (pairs.length > 0) console.log(`  both ways: ${pairs.map((arrow) => `${arrow.from} <-> ${arrow.to}`).join(", ")}`);
    if (process.argv.includes("--files")) for (const arrow of cycle.arrows) for (const file of arrow.files) console.log(`    ${file}`);
  }
}
