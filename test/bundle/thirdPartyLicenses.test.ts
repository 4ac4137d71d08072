/**
 * The licences of what main.js bundles travel with it: the packages' own legal comments at the end
 * of main.js (the file Obsidian installs), and every bundled package's licence file, word for word,
 * in THIRD_PARTY_LICENSES.txt, which the release attaches beside it. A package under a licence the
 * plugin cannot bundle stops the build.
 */
import { build, type Metafile } from "esbuild";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pluginBuildOptions } from "../../esbuild.options";
import { bytesByPackage } from "../../scripts/bundle/bytesByPackage";
import { bundledPackages, thirdPartyLicensesText, THIRD_PARTY_LICENSES_FILE } from "../../scripts/bundle/thirdPartyLicenses";

const repoRoot = resolve(__dirname, "../..");

describe("third-party licences of main.js", () => {
  let mainJs = "";
  let metafile: Metafile;

  beforeAll(async () => {
    const result = await build({ ...pluginBuildOptions(true), absWorkingDir: repoRoot, write: false, metafile: true, logLevel: "silent" });
    mainJs = result.outputFiles.find((file) => file.path.endsWith("main.js"))!.text;
    metafile = result.metafile;
  }, 60_000); // a release build of main.js, which takes seconds on a loaded machine

  it("keeps the packages' own legal comments at the end of main.js and names the licence file", () => {
    const legalBlock = mainJs.lastIndexOf("Bundled license information");
    expect(legalBlock).toBeGreaterThan(mainJs.length - 10_000);
    const tail = mainJs.slice(legalBlock);
    expect(tail).toContain("@license React");
    expect(tail).toContain("Copyright (c) Meta Platforms, Inc. and affiliates.");
    expect(mainJs.trimEnd().endsWith(`/*! Licences of the bundled packages: ${THIRD_PARTY_LICENSES_FILE}, beside main.js in every release. */`)).toBe(true);
  });

  it("lists every package with bytes in main.js, each with its licence file word for word", () => {
    const packages = bundledPackages(metafile, repoRoot);
    const bundledNames = new Set(
      bytesByPackage(metafile)
        .filter((row) => !row.name.endsWith("/"))
        .map((row) => row.name.split(" > ").pop()!),
    );
    expect(bundledNames.size).toBeGreaterThan(10);
    expect(new Set(packages.map((entry) => entry.name))).toEqual(bundledNames);

    const text = thirdPartyLicensesText(packages);
    for (const entry of packages) {
      expect(text).toContain(`${entry.name} ${entry.version}\nLicence: ${entry.license}`);
      for (const file of entry.files) expect(text).toContain(file.text);
    }
    // The Apache-2.0 client and the BSD-3-Clause diff library carry their own terms in full.
    const openaiLicense = readFileSync(join(repoRoot, "node_modules/openai/LICENSE"), "utf8").trim();
    expect(text).toContain(openaiLicense);
    expect(packages.find((entry) => entry.name === "diff")?.license).toBe("BSD-3-Clause");
  });

  describe("over a made-up node_modules", () => {
    let root = "";
    beforeEach(() => {
      root = mkdtempSync(join(tmpdir(), "licences-"));
    });
    afterEach(() => rmSync(root, { recursive: true, force: true }));

    function addPackage(name: string, manifest: Record<string, unknown>, files: Record<string, string>): string {
      const directory = join(root, "node_modules", name);
      mkdirSync(directory, { recursive: true });
      writeFileSync(join(directory, "package.json"), JSON.stringify({ name, version: "1.0.0", ...manifest }));
      for (const [file, text] of Object.entries(files)) writeFileSync(join(directory, file), text);
      return `node_modules/${name}/index.js`;
    }
    const metafileOver = (...inputs: string[]): Metafile => ({
      inputs: {},
      outputs: { "main.js": { bytes: 10, inputs: Object.fromEntries(inputs.map((input) => [input, { bytesInOutput: 5 }])), imports: [], exports: [], entryPoint: "src/main.ts" } },
    });

    it("refuses a package under a licence the plugin cannot bundle, naming it", () => {
      const accepted = addPackage("ordinary", { license: "MIT" }, { LICENSE: "MIT License\n\nCopyright (c) someone" });
      const copyleft = addPackage("@scope/copyleft-parser", { license: "GPL-3.0-only" }, { COPYING: "GNU GENERAL PUBLIC LICENSE" });
      const undeclared = addPackage("undeclared", {}, {});
      expect(() => bundledPackages(metafileOver(accepted, copyleft, undeclared), root)).toThrow(
        /not accepted for the plugin: @scope\/copyleft-parser@1\.0\.0 \(GPL-3\.0-only\), undeclared@1\.0\.0 \(no licence declared\)/,
      );
    });

    it("carries authors and licence texts in any script exactly, and says when a package ships no licence file", () => {
      const nfdName = "Ame\u0301lie Poulain";
      const licenseText = `ISC License\n\nCopyright (c) 2024 Иван Петров, 王小明, ${nfdName}, สมชาย ใจดี, علي 🙂\n\nPermission to use, copy, modify…`;
      const withFile = addPackage("мир-utils", { license: "ISC", author: { name: "Иван Петров" } }, { LICENSE: licenseText });
      const withoutFile = addPackage("bare-mit", { license: "MIT", author: "王小明" }, {});
      const text = thirdPartyLicensesText(bundledPackages(metafileOver(withFile, withoutFile), root));
      expect(text).toContain(`мир-utils 1.0.0\nLicence: ISC\nAuthor: Иван Петров\n\n${licenseText}\n`);
      expect(text).toContain(nfdName);
      expect(text).toContain("bare-mit 1.0.0\nLicence: MIT\nAuthor: 王小明\n\nThe package ships no licence file; its package.json declares MIT.");
    });
  });
});
