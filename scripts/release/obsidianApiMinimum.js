// The oldest Obsidian that has every API the plugin's own code uses: each name in the given source
// files that TypeScript resolves to a declaration in obsidian.d.ts, with the version of that
// declaration's `@since` tag (or its class's or interface's). The highest one is the real
// minAppVersion. CommonJS, so the release check and jest can require it.
const ts = require("typescript");
const { dirname, join, resolve } = require("node:path");

/** -1, 0 or 1 as version a is older than, equal to or newer than b ("1.11.4" vs "1.10.0"). */
function compareVersions(a, b) {
  const left = a.split(".").map(Number);
  const right = b.split(".").map(Number);
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}
exports.compareVersions = compareVersions;

function sinceTagOf(node) {
  for (const tag of ts.getJSDocTags(node)) {
    if (tag.tagName.text === "since" && typeof tag.comment === "string") return tag.comment.trim();
  }
  return undefined;
}

function isObsidianDeclaration(declaration) {
  return declaration.getSourceFile().fileName.replace(/\\/g, "/").endsWith("/obsidian/obsidian.d.ts");
}

/** "SecretStorage.getSecret" for a member, "SecretStorage" for a top-level declaration. */
function qualifiedNameOf(declaration, name) {
  const parent = declaration.parent;
  if ((ts.isClassDeclaration(parent) || ts.isInterfaceDeclaration(parent)) && parent.name) return `${parent.name.text}.${name}`;
  return name;
}

/** The version a declaration needs: its own `@since`, else its class's or interface's. */
function sinceOf(declaration) {
  const own = sinceTagOf(declaration);
  if (own) return own;
  const parent = declaration.parent;
  if (parent && (ts.isClassDeclaration(parent) || ts.isInterfaceDeclaration(parent))) return sinceTagOf(parent);
  return undefined;
}

/** The names of obsidian.d.ts's declarations (and their classes' members) that carry a version. */
function versionedNamesIn(program) {
  const names = new Set();
  const visit = (node) => {
    const name = node.name;
    if (name && (ts.isIdentifier(name) || ts.isStringLiteral(name)) && sinceOf(node)) names.add(name.text);
    ts.forEachChild(node, visit);
  };
  for (const sourceFile of program.getSourceFiles()) {
    if (sourceFile.fileName.replace(/\\/g, "/").endsWith("/obsidian/obsidian.d.ts")) visit(sourceFile);
  }
  return names;
}

/**
 * Every Obsidian API the files use that carries a version: [{ name, since, file }] (one entry per
 * name, with the first file that uses it), newest first.
 */
exports.obsidianApisUsed = function obsidianApisUsed(files, tsconfigPath) {
  const configFile = ts.readConfigFile(tsconfigPath, ts.sys.readFile);
  if (configFile.error) throw new Error(`Cannot read ${tsconfigPath}: ${ts.flattenDiagnosticMessageText(configFile.error.messageText, "\n")}`);
  const parsed = ts.parseJsonConfigFileContent(configFile.config, ts.sys, dirname(tsconfigPath));
  // Only our own modules and obsidian.d.ts are read: a value typed by React, LangChain or Node is
  // never an Obsidian object, and leaving their declarations out (they become `any`) takes the
  // scan from half a minute to a few seconds.
  const options = { ...parsed.options, types: [], noEmit: true };
  const host = ts.createCompilerHost(options);
  host.resolveModuleNameLiterals = (literals, containingFile) =>
    literals.map((literal) => {
      const name = literal.text;
      if (name !== "obsidian" && !name.startsWith(".")) return { resolvedModule: undefined };
      return ts.resolveModuleName(name, containingFile, options, host);
    });
  const program = ts.createProgram({ rootNames: files, options, host });
  const checker = program.getTypeChecker();
  const versionedNames = versionedNamesIn(program);
  const wanted = new Set(files.map((file) => resolve(file)));
  const found = new Map();

  const visit = (node, sourceFile) => {
    // Types are erased: a type from a newer Obsidian (SettingDefinitionItem for the 1.13 settings
    // search, say) asks nothing of an older app. A class's `extends` is a value, and is kept.
    if (ts.isImportDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) return;
    if (ts.isHeritageClause(node) && node.token === ts.SyntaxKind.ImplementsKeyword) return;
    if (ts.isTypeNode(node) && !ts.isExpressionWithTypeArguments(node)) return;
    // Asking the checker about every identifier takes half a minute; only names that some
    // versioned declaration of obsidian.d.ts carries can resolve to one.
    if (ts.isIdentifier(node) && versionedNames.has(node.text)) {
      let symbol = checker.getSymbolAtLocation(node);
      if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      for (const declaration of symbol?.getDeclarations() ?? []) {
        if (!isObsidianDeclaration(declaration)) continue;
        const since = sinceOf(declaration);
        if (!since) continue;
        const name = qualifiedNameOf(declaration, symbol.getName());
        if (!found.has(name)) found.set(name, { name, since, file: sourceFile.fileName });
      }
    }
    ts.forEachChild(node, (child) => visit(child, sourceFile));
  };
  for (const sourceFile of program.getSourceFiles()) {
    if (wanted.has(resolve(sourceFile.fileName))) visit(sourceFile, sourceFile);
  }
  return [...found.values()].sort((left, right) => compareVersions(right.since, left.since) || left.name.localeCompare(right.name));
};

/** The source files of src/ that the metafile's main.js holds, as absolute paths. */
exports.sourceFilesInBundle = function sourceFilesInBundle(metafile, repoRoot) {
  const files = new Set();
  for (const output of Object.values(metafile.outputs)) {
    for (const inputPath of Object.keys(output.inputs)) {
      if (inputPath.startsWith("src/") && /\.tsx?$/.test(inputPath)) files.add(join(repoRoot, inputPath));
    }
  }
  return [...files].sort();
};
