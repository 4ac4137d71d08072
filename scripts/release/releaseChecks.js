// What must hold before a release, each check returning the problems it found as sentences that
// say what to change (an empty list: it holds). Used by scripts/release-check.mjs; CommonJS so
// jest can require it.
const { builtinModules } = require("node:module");
const { compareVersions } = require("./obsidianApiMinimum.js");

/** Obsidian takes plain x.y.z versions for the plugin and for minAppVersion. */
const PLAIN_VERSION = /^\d+\.\d+\.\d+$/;

/** The keys the community directory accepts in manifest.json, with their types. */
const REQUIRED_KEYS = { id: "string", name: "string", version: "string", minAppVersion: "string", description: "string", author: "string", isDesktopOnly: "boolean" };
const OPTIONAL_KEYS = { authorUrl: "string", fundingUrl: "string or object" };

/** What a description may hold (the directory's review rule): letters, digits, spaces and plain punctuation; no emoji. */
const DESCRIPTION_CHARACTERS = /^[A-Za-z0-9\s.,!?'"-]+$/;

/** package.json, manifest.json and versions.json name one version, and versions.json maps it to the manifest's minAppVersion. */
exports.checkVersions = function checkVersions({ packageJson, manifest, versions, changelog }) {
  const problems = [];
  const version = packageJson.version;
  if (!PLAIN_VERSION.test(String(version))) problems.push(`package.json's version "${version}" is not x.y.z (Obsidian reads only plain versions).`);
  if (manifest.version !== version) {
    problems.push(`manifest.json's version "${manifest.version}" differs from package.json's "${version}": bump with \`npm version\`, which updates both.`);
  }
  if (!(version in versions)) {
    problems.push(`versions.json has no entry for ${version}: add "${version}": "${manifest.minAppVersion}" (\`npm version\` does).`);
  } else if (versions[version] !== manifest.minAppVersion) {
    problems.push(`versions.json maps ${version} to ${versions[version]}, but manifest.json's minAppVersion is ${manifest.minAppVersion}: make them the same.`);
  }
  for (const [entry, appVersion] of Object.entries(versions)) {
    if (!PLAIN_VERSION.test(entry) || typeof appVersion !== "string" || !PLAIN_VERSION.test(appVersion)) {
      problems.push(`versions.json's entry "${entry}": "${appVersion}" is not a plugin version mapped to an app version (both x.y.z).`);
    }
  }
  if (changelog !== undefined && !changelog.includes(`## [${version}]`)) {
    problems.push(`CHANGELOG.md has no "## [${version}]" section: move what is under [Unreleased] into one, dated.`);
  }
  return problems;
};

function namesObsidianOrPlugin(text) {
  return /obsidian|plugin/i.test(text);
}

/** The community directory's rules for manifest.json (besides minAppVersion and isDesktopOnly, checked against the code). */
exports.checkManifest = function checkManifest(manifest) {
  const problems = [];
  for (const [key, type] of Object.entries(REQUIRED_KEYS)) {
    if (!(key in manifest)) problems.push(`manifest.json has no "${key}" (${type}).`);
    else if (typeof manifest[key] !== type) problems.push(`manifest.json's "${key}" must be a ${type}, not ${JSON.stringify(manifest[key])}.`);
  }
  for (const key of Object.keys(manifest)) {
    if (!(key in REQUIRED_KEYS) && !(key in OPTIONAL_KEYS)) {
      problems.push(`manifest.json's "${key}" is not a key the directory accepts (it takes ${[...Object.keys(REQUIRED_KEYS), ...Object.keys(OPTIONAL_KEYS)].join(", ")}).`);
    }
  }
  const { id, name, description, minAppVersion } = manifest;
  if (typeof id === "string") {
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id)) problems.push(`manifest.json's id "${id}" must be lowercase letters and digits joined by single hyphens.`);
    if (namesObsidianOrPlugin(id)) problems.push(`manifest.json's id "${id}" must not contain "obsidian" or "plugin".`);
  }
  if (typeof name === "string" && namesObsidianOrPlugin(name)) problems.push(`manifest.json's name "${name}" must not contain "Obsidian" or "Plugin".`);
  if (typeof description === "string") {
    const length = [...description].length;
    if (length < 10 || length > 250) problems.push(`manifest.json's description is ${length} characters; the directory takes 10 to 250.`);
    if (!/^[A-Z]/.test(description)) problems.push("manifest.json's description must start with a capital letter.");
    if (!description.endsWith(".")) problems.push("manifest.json's description must end with a period.");
    if (!DESCRIPTION_CHARACTERS.test(description)) {
      const odd = [...new Set([...description].filter((character) => !DESCRIPTION_CHARACTERS.test(character)))].join(" ");
      problems.push(`manifest.json's description may hold only letters, digits and plain punctuation (no emoji): remove ${odd}.`);
    }
    if (namesObsidianOrPlugin(description)) problems.push('manifest.json\'s description must not say "Obsidian" or "plugin": say what it does.');
  }
  if (typeof minAppVersion === "string" && !PLAIN_VERSION.test(minAppVersion)) problems.push(`manifest.json's minAppVersion "${minAppVersion}" is not x.y.z.`);
  if ("fundingUrl" in manifest) {
    const urls = typeof manifest.fundingUrl === "string" ? [manifest.fundingUrl] : Object.values(manifest.fundingUrl ?? {});
    if (urls.length === 0 || urls.some((url) => typeof url !== "string" || !/^https:\/\/\S+$/.test(url))) {
      problems.push('manifest.json\'s fundingUrl must be a link (or named links) where people can fund the work; leave the key out when there is none.');
    }
  }
  if ("authorUrl" in manifest && !/^https?:\/\/\S+$/.test(String(manifest.authorUrl))) problems.push("manifest.json's authorUrl must be a link.");
  return problems;
};

/**
 * minAppVersion is the oldest app with every API the code uses: not older (the plugin would break
 * there), not newer (people on that app are turned away for nothing). `apis` from obsidianApisUsed.
 */
exports.checkMinAppVersion = function checkMinAppVersion(manifest, apis) {
  const needed = apis[0];
  if (!needed) return [];
  const setters = apis.filter((api) => compareVersions(api.since, needed.since) === 0).map((api) => api.name);
  const minAppVersion = String(manifest.minAppVersion);
  if (compareVersions(minAppVersion, needed.since) !== 0) {
    return [
      `manifest.json's minAppVersion is ${minAppVersion}, but the oldest Obsidian with every API the code uses is ${needed.since} ` +
        `(${setters.join(", ")}): set minAppVersion (and versions.json's entry) to ${needed.since}.`,
    ];
  }
  return [];
};

/** Node's built-in modules, as a bundle names them. */
const NODE_MODULES = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

/**
 * isDesktopOnly false is true to the code: nothing main.ts reaches without a dynamic import (the
 * desktop-only stdio MCP transport is one) needs a Node module, which mobile does not have.
 * `metafile` is the release build's; returns the problems.
 */
exports.checkDesktopOnly = function checkDesktopOnly(manifest, metafile, entry = "src/main.ts") {
  if (manifest.isDesktopOnly !== false) {
    return ["manifest.json's isDesktopOnly must be false: the plugin works on mobile, where only the stdio MCP servers are left out."];
  }
  const reached = new Set([entry]);
  const queue = [entry];
  const nodeImports = [];
  while (queue.length > 0) {
    const input = queue.pop();
    for (const imported of metafile.inputs[input]?.imports ?? []) {
      if (imported.kind === "dynamic-import") continue;
      if (imported.external) {
        if (NODE_MODULES.has(imported.path)) nodeImports.push(`${input} imports ${imported.path}`);
        continue;
      }
      if (!reached.has(imported.path)) {
        reached.add(imported.path);
        queue.push(imported.path);
      }
    }
  }
  if (nodeImports.length === 0) return [];
  return [
    `manifest.json says isDesktopOnly false, but main.js loads Node modules that mobile lacks: ${nodeImports.join("; ")}. ` +
      "Load that code with a dynamic import behind Platform.isDesktop.",
  ];
};
