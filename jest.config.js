/**
 * Three projects: `unit` (Node: logic over real folders, real HTTP servers and real MCP servers),
 * `dom` (jsdom: React components) and `e2e` (a real Chromium driven by playwright-core).
 * `npm test` runs all three; `npm run test:e2e` only the browser tests.
 */
const transform = {
  "^.+\\.(t|j)sx?$": [
    "@swc/jest",
    {
      jsc: {
        parser: { syntax: "typescript", tsx: true },
        transform: { react: { runtime: "automatic" } },
        target: "es2022",
      },
      module: { type: "commonjs" },
    },
  ],
};
// ESM-only packages that Jest must transform.
// linkedom (web pages read in Node) reaches its HTML parser and selector engine through ESM-only packages.
const linkedomPackages = ["css-select", "boolbase", "css-what", "domhandler", "domelementtype", "domutils", "dom-serializer", "entities", "nth-check", "cssomnom", "htmlparser2", "uhyphen"];
const esmPackages = ["pkce-challenge", "diff", "marked", "@actions", ...linkedomPackages].join("|");
const common = {
  transform,
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages})/)`],
  moduleNameMapper: {
    "^obsidian$": "<rootDir>/test/obsidian/obsidian.ts",
    // GitHub's workflow parser (the release workflow's test) exports its files for `import` only.
    "^@actions/(workflow-parser|expressions)$": "<rootDir>/node_modules/@actions/$1/dist/index.js",
    "^@actions/(workflow-parser|expressions)/(.*)$": "<rootDir>/node_modules/@actions/$1/dist/$2.js",
  },
  setupFiles: [],
};

module.exports = {
  projects: [
    {
      ...common,
      displayName: "unit",
      testEnvironment: "node",
      testMatch: ["<rootDir>/src/**/*.test.ts", "<rootDir>/test/**/*.test.ts"],
      testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/e2e/"],
    },
    {
      ...common,
      displayName: "dom",
      testEnvironment: "<rootDir>/test/jsdomEnvironment.js",
      testMatch: ["<rootDir>/src/**/*.test.tsx", "<rootDir>/test/**/*.test.tsx"],
      testPathIgnorePatterns: ["/node_modules/", "<rootDir>/test/e2e/"],
    },
    {
      ...common,
      displayName: "e2e",
      testEnvironment: "node",
      testMatch: ["<rootDir>/test/e2e/**/*.test.ts"],
    },
  ],
};
