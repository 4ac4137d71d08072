// Two bundles: the plugin's main.js (browser platform, what Obsidian desktop and mobile load)
// and the headless CLI dist/cli.js (Node). `node esbuild.config.mjs` watches the plugin;
// `node esbuild.config.mjs production` builds both once, minified, and writes the bundled
// packages' licences to THIRD_PARTY_LICENSES.txt beside main.js. The options themselves are in
// esbuild.options.js, which the bundle test builds with too.
import esbuild from "esbuild";
import { writeFileSync } from "node:fs";
import { cliBuildOptions, pluginBuildOptions } from "./esbuild.options.js";
import { bundledPackages, thirdPartyLicensesText, THIRD_PARTY_LICENSES_FILE } from "./scripts/bundle/thirdPartyLicenses.js";

const production = process.argv[2] === "production";

if (production) {
  const plugin = await esbuild.build({ ...pluginBuildOptions(true), metafile: true });
  const packages = bundledPackages(plugin.metafile, process.cwd());
  writeFileSync(THIRD_PARTY_LICENSES_FILE, thirdPartyLicensesText(packages));
  console.log(`  ${THIRD_PARTY_LICENSES_FILE}  the licences of ${packages.length} bundled packages`);
  await esbuild.build(cliBuildOptions());
} else {
  const context = await esbuild.context(pluginBuildOptions(false));
  await context.watch();
}
