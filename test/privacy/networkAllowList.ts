/**
 * Every address main.js names, accounted for. An address the plugin can contact names the row of
 * README's "Privacy and network use" table that discloses it (`row`, the row's bold name); any
 * other says why it is never contacted (`never`). test/privacy/networkDisclosure.test.ts fails on
 * an address in main.js that no entry matches, and on an entry that matches nothing any more.
 */
export type AllowedAddress = { pattern: RegExp; row: string } | { pattern: RegExp; never: string };

export const NETWORK_ALLOW_LIST: readonly AllowedAddress[] = [
  // Contacted: what README's table lists.
  { pattern: /^https:\/\/api\.openai\.com\/v1$/, row: "Model provider" },
  { pattern: /^https:\/\/api\.anthropic\.com\/v1$/, row: "Model provider" },
  { pattern: /^https:\/\/generativelanguage\.googleapis\.com\/v1beta$/, row: "Model provider" },
  { pattern: /^https:\/\/openrouter\.ai\/api\/v1$/, row: "Model provider" },
  { pattern: /^http:\/\/127\.0\.0\.1:11434(\/v1)?$/, row: "Local model servers" },
  { pattern: /^http:\/\/127\.0\.0\.1:1234(\/v1)?$/, row: "Local model servers" },
  { pattern: /^http:\/\/127\.0\.0\.1:8080$/, row: "Web search" },
  { pattern: /^https:\/\/api\.search\.brave\.com$/, row: "Web search" },
  { pattern: /^https:\/\/api\.tavily\.com$/, row: "Web search" },
  { pattern: /^https:\/\/www\.youtube\.com(\/watch\?v=\$\{[\w.]+\})?$/, row: "YouTube" },
  { pattern: /^\.youtube\.com$/, row: "YouTube" },

  // Never contacted.
  { pattern: /^https:\/\/obsidian\.md$/, never: "the value of the HTTP-Referer header sent to OpenRouter (disclosed in its row), not a request" },
  { pattern: /^https:\/\/example\.com\/mcp$/, never: "the example in the MCP servers setting; a server is contacted only once the user adds and enables one" },
  { pattern: /^http:\/\/www\.w3\.org\/(2000\/svg|1999\/xlink|1998\/Math\/MathML|2000\/xmlns\/|XML\/1998\/namespace)$/, never: "XML namespace names React DOM uses for SVG and MathML" },
  { pattern: /^http:\/\/www\.w3\.org\/1999\/xhtml$/, never: "the HTML namespace name the rendered-answer check compares elements with (untrustedRender.ts)" },
  { pattern: /^https?:\/\/json-schema\.org\/(draft-0[47]\/schema#|draft\/2019-09\/schema#|draft\/2020-12\/schema)$/, never: "JSON Schema dialect identifiers (zod, the MCP SDK, the schema validator)" },
  { pattern: /^http:\/\/\[\$\{\w+\}\]$/, never: "an IPv6 address put in a URL object to validate it, never requested" },
  { pattern: /^https:\/\/react\.dev\/errors\/$/, never: "a link in React's error messages" },
  { pattern: /^https:\/\/docs\.langchain\.com\/oss\/javascript\/langchain\/errors\/\$\{\w+\}\/$/, never: "a link in LangChain's error messages" },
  { pattern: /^https:\/\/(platform|help)\.openai\.com\/\S+$/, never: "links in the OpenAI client's error messages" },
  { pattern: /^https:\/\/docs\.expo\.dev\/\S+$/, never: "a link in the OpenAI client's error message about streaming fetches" },
  { pattern: /^https:\/\/github\.com\/(Starcounter-Jack\/JSON-Patch|cfworker|emn178\/js-sha256)$/, never: "in bundled packages' licence comments" },
  { pattern: /^http:\/\/mths\.be\/fromcodepoint$/, never: "in a bundled package's licence comment" },
  { pattern: /^https:\/\/auth\.openai\.com\/oauth\/token$/, never: "the OpenAI client's workload-identity token exchange, used only when a client is given a workload identity, which the plugin never does" },
  { pattern: /^https:\/\/\$\{\w+\}\.openai\.azure\.com\/openai\/deployments\/\$\{\w+\}$/, never: "LangChain's Azure OpenAI endpoint, built only from Azure options the plugin never sets" },
  {
    pattern: /^(https:\/\/gateway\.smith\.langchain\.com|http:\/\/localhost:1984)$/,
    never: "LangSmith tracing endpoints, used only when LANGCHAIN_/LANGSMITH_ environment variables switch tracing on; the plugin sets none, and its LangSmith client stand-in refuses to send (ARCHITECTURE.md)",
  },
  { pattern: /^https:\/\/mermaid\.ink\/img\/\$\{\w+\}\?bgColor=\$\{\w+\}&type=\$\{\w+\}$/, never: "LangChain's graph-to-PNG helper (drawMermaidPng), which the plugin never calls" },
];
