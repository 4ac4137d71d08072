// Two bundles: the plugin's main.js (browser platform, what Obsidian desktop and mobile load)
// and the headless CLI dist/cli.js (Node). `node esbuild.config.mjs` watches the plugin;
// `node esbuild.config.mjs production` builds both once, minified. The options themselves are in
// esbuild.options.js, which the bundle test builds with too.
import esbuild from "esbuild";
import { cliBuildOptions, pluginBuildOptions } from "./esbuild.options.js";

const production = process.argv[2] === "production";

if (production) {
  await esbuild.build(pluginBuildOptions(true));
  await esbuild.build(cliBuildOptions());
} else {
  const context = await esbuild.context(pluginBuildOptions(false));
  await context.watch();
}
