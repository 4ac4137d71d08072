import { ToolFailureError } from "../errorMessage";
import type { VaultPort } from "../vault/VaultPort";
import type { ToolDependencies } from "./toolDependencies";

/**
 * The vault, for tools marked `requiresVault` (the registry leaves them out when there is none,
 * so reaching this without one is a wiring bug, reported as such).
 */
export function requireVault(dependencies: ToolDependencies): VaultPort {
  if (!dependencies.vault) throw new ToolFailureError("No vault is open, so this tool cannot run.", { kind: "no-vault", values: {} });
  return dependencies.vault;
}
