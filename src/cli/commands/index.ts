import type { CliCommandTable } from "../index";

/** Every CLI command, one line each; each lives in its own file and is loaded only when it runs. */
export const CLI_COMMANDS: CliCommandTable = {
  search: () => import("./searchCommand").then((m) => m.searchCommand),
  similar: () => import("./similarCommand").then((m) => m.similarCommand),
  chat: () => import("./chatCommand").then((m) => m.chatCommand),
  qa: () => import("./qaCommand").then((m) => m.qaCommand),
  agent: () => import("./agentCommand").then((m) => m.agentCommand),
  mcp: () => import("./mcpCommand").then((m) => m.mcpCommand),
  run: () => import("./runCommand").then((m) => m.runCommand),
  complete: () => import("./completeCommand").then((m) => m.completeCommand),
};
