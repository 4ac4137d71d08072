import { CLI_COMMANDS } from "./commands";
import { main } from "./index";

const controller = new AbortController();
process.on("SIGINT", () => controller.abort(new Error("interrupted")));

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
    process.stderr.write(`vault-copilot: ${String(error)}\n`);
    process.exitCode = 1;
  },
);
