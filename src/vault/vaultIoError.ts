import { quotePath } from "./vaultPath";

/**
 * A file-system failure told with the vault path only. Node's own messages name the absolute
 * path ("ELOOP: too many symbolic links encountered, realpath '/home/alice/Vault/a.md'"), and
 * what `FsVault` throws becomes a tool result the model reads and a line the CLI prints: where
 * the vault sits on the machine (a user name, the folders around it) is not theirs to see.
 */
export class VaultIoError extends Error {
  constructor(
    /** The vault path (or the data file's name) the failure concerns; "" for the vault folder itself. */
    readonly path: string,
    /** Node's error code: "EACCES", "ELOOP", … */
    readonly code: string,
    action: string,
    reason: string,
  ) {
    super(`Could not ${action} ${path ? quotePath(path) : "the vault folder"}: ${reason} (${code})`);
    this.name = "VaultIoError";
  }
}

/**
 * `error` told with `path` when it is a Node file-system error (one with a code and a system
 * call, whose message names absolute paths); any other error as it is, since ours name vault
 * paths already. Checked by shape, not by class: an error made in another realm (a VM context,
 * as under Jest) is no `instanceof Error` here.
 */
export function withVaultPath(error: unknown, path: string, action: string): unknown {
  if (typeof error !== "object" || error === null) return error;
  const { code, syscall, message } = error as Partial<NodeJS.ErrnoException>;
  if (typeof code !== "string" || typeof syscall !== "string") return error;
  return new VaultIoError(path, code, action, reasonOf(typeof message === "string" ? message : "", code, syscall));
}

/** "ELOOP: too many symbolic links encountered, realpath '/x'" -> "too many symbolic links encountered". */
function reasonOf(message: string, code: string, syscall: string): string {
  // Making the folders of a new note fails so when a name on the way is a file ("Plan.md/New.md").
  if (syscall === "mkdir" && (code === "EEXIST" || code === "ENOTDIR")) return "a name on its way is a file, not a folder";
  const reason = message.replace(new RegExp(`^${code}:\\s*`), "").replace(/,\s*[a-z_]+\s+'[\s\S]*$/, "").trim();
  // Anything still naming a place on the machine is dropped: the code says what went wrong.
  return reason && !/[/\\']/.test(reason) ? reason : "the file system refused";
}
