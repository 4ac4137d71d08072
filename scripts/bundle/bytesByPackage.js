// Sums an esbuild metafile's output bytes by source package, shared by bench/bundle/run.mjs and
// test/bundle/bundleSize.test.ts. A file under node_modules counts for the innermost package in its
// path, named with its parent when nested (`@langchain/core > zod`), so a second copy is its own row.

/** "node_modules/a/node_modules/@b/c/x.js" -> "a > @b/c"; anything else -> "src/" or the folder. */
function packageOf(inputPath) {
  const parts = inputPath.split("/");
  const names = [];
  for (let index = 0; index < parts.length; index++) {
    if (parts[index] !== "node_modules") continue;
    const first = parts[index + 1];
    names.push(first.startsWith("@") ? `${first}/${parts[index + 2]}` : first);
  }
  if (names.length > 0) return names.join(" > ");
  const top = parts[0] === "." ? parts[1] : parts[0];
  return parts.length > 1 ? `${top}/` : top;
}

/** Rows { name, bytes, files } for every package with bytes in the outputs, largest first. */
exports.bytesByPackage = function bytesByPackage(metafile) {
  const totals = new Map();
  for (const output of Object.values(metafile.outputs)) {
    for (const [inputPath, { bytesInOutput }] of Object.entries(output.inputs)) {
      if (bytesInOutput === 0) continue;
      const name = packageOf(inputPath);
      const row = totals.get(name) ?? { name, bytes: 0, files: 0 };
      row.bytes += bytesInOutput;
      row.files += 1;
      totals.set(name, row);
    }
  }
  return [...totals.values()].sort((left, right) => right.bytes - left.bytes);
};

exports.packageOf = packageOf;
