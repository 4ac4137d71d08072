import { errorMessage } from "../errorMessage";
import { CLI_COMMANDS } from "./commands";
import { main } from "./index";

// Ctrl-C (SIGINT) and SIGTERM stop the command: connecting, listing and the run end at once and
// the MCP servers it started are ended. A second signal exits without waiting for any of it.
const controller = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (controller.signal.aborted) process.exit(signal === "SIGINT" ? 130 : 143);
    controller.abort(new Error(signal === "SIGINT" ? "interrupted" : "terminated"));
  });
}

main(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  signal: controller.signal,
}, CLI_COMMANDS).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    process.stderr.write(`vault-copilot: ${errorMessage(error)}\n`);
    process.exitCode = 1;
  },
);
