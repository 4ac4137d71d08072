// The licences of the packages bundled into main.js, read from an esbuild metafile: one section per
// package with bytes in the output (name, version, licence, its own licence file word for word).
// The release build writes them to THIRD_PARTY_LICENSES.txt beside main.js; main.js itself keeps
// the legal comments its packages marked (`legalComments: "eof"`, see designdocs/ARCHITECTURE.md).
// CommonJS, so esbuild.config.mjs and jest can both require it.
const { readdirSync, readFileSync } = require("node:fs");
const { join } = require("node:path");

/** The file the release build writes beside main.js, and the release attaches. */
exports.THIRD_PARTY_LICENSES_FILE = "THIRD_PARTY_LICENSES.txt";

/**
 * Licences that let an MIT-licensed plugin bundle the code, given their notices travel with it.
 * A package under any other licence (GPL, AGPL, unknown) stops the build until someone decides.
 */
exports.ACCEPTED_LICENSES = ["MIT", "ISC", "BSD-2-Clause", "BSD-3-Clause", "Apache-2.0", "0BSD"];

/** "…/node_modules/a/node_modules/@b/c/x.js" -> "…/node_modules/a/node_modules/@b/c" (the innermost package). */
function packageDirectoryOf(inputPath) {
  const match = /^(.*node_modules\/(?:@[^/]+\/[^/]+|[^/]+))\//.exec(inputPath);
  return match ? match[1] : null;
}

function licenseFilesIn(directory) {
  return readdirSync(directory)
    .filter((name) => /^(licen[cs]e|copying|notice)(\.|$)/i.test(name))
    .sort();
}

function licenseOf(manifest) {
  if (typeof manifest.license === "string") return manifest.license;
  if (manifest.license && typeof manifest.license.type === "string") return manifest.license.type;
  if (Array.isArray(manifest.licenses)) return manifest.licenses.map((entry) => entry.type).join(" OR ");
  return "";
}

function authorOf(manifest) {
  const author = manifest.author;
  if (typeof author === "string") return author;
  if (author && typeof author.name === "string") return author.name;
  return "";
}

/**
 * Every package with bytes in the bundle: { name, version, license, author, directory, files:
 * [{ name, text }] }, sorted by name. Throws, naming the packages, when one has a licence outside
 * ACCEPTED_LICENSES or declares none.
 */
exports.bundledPackages = function bundledPackages(metafile, repoRoot) {
  const directories = new Set();
  for (const output of Object.values(metafile.outputs)) {
    for (const [inputPath, { bytesInOutput }] of Object.entries(output.inputs)) {
      if (bytesInOutput === 0) continue;
      const directory = packageDirectoryOf(inputPath);
      if (directory) directories.add(directory);
    }
  }
  const packages = [...directories].map((directory) => {
    const absolute = join(repoRoot, directory);
    const manifest = JSON.parse(readFileSync(join(absolute, "package.json"), "utf8"));
    const files = licenseFilesIn(absolute).map((name) => ({ name, text: readFileSync(join(absolute, name), "utf8").trim() }));
    return { name: manifest.name, version: manifest.version, license: licenseOf(manifest), author: authorOf(manifest), directory, files };
  });
  packages.sort((left, right) => left.name.localeCompare(right.name) || left.version.localeCompare(right.version));
  const refused = packages.filter((entry) => !exports.ACCEPTED_LICENSES.includes(entry.license));
  if (refused.length > 0) {
    const list = refused.map((entry) => `${entry.name}@${entry.version} (${entry.license || "no licence declared"})`).join(", ");
    throw new Error(
      `main.js would bundle code under a licence not accepted for the plugin: ${list}. ` +
        `Accepted: ${exports.ACCEPTED_LICENSES.join(", ")}. Replace the package, keep it out of main.js, or add its licence ` +
        "to ACCEPTED_LICENSES in scripts/bundle/thirdPartyLicenses.js after checking it allows bundling.",
    );
  }
  return packages;
};

/** The text of THIRD_PARTY_LICENSES.txt for those packages. */
exports.thirdPartyLicensesText = function thirdPartyLicensesText(packages) {
  const rule = "-".repeat(72);
  const sections = packages.map((entry) => {
    const header = [`${entry.name} ${entry.version}`, `Licence: ${entry.license}`];
    if (entry.author) header.push(`Author: ${entry.author}`);
    const body =
      entry.files.length > 0
        ? entry.files.map((file) => (entry.files.length > 1 ? `${file.name}:\n\n${file.text}` : file.text)).join("\n\n")
        : `The package ships no licence file; its package.json declares ${entry.license}.`;
    return `${rule}\n${header.join("\n")}\n\n${body}\n`;
  });
  return (
    "Vault Copilot's main.js bundles code from the packages below. Each is listed with its version,\n" +
    "its licence and its licence file as the package ships it.\n\n" +
    sections.join("\n")
  );
};
