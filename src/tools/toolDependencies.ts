import type { Clock } from "../ports/Clock";
import type { HttpPort } from "../ports/HttpPort";
import type { CopilotSettings } from "../settings/settingsSchema";
import type { SecretStore } from "../settings/secrets";
import type { VaultPort } from "../vault/VaultPort";
import type { ApprovalPort } from "./approval";

/**
 * Everything the built-in tools may use, handed in at the wiring points (`main.ts`, the CLI,
 * tests). Tools close over what they need when they are created; they reach for nothing global.
 */
export interface ToolDependencies {
  /** Null where no vault is open (tools with `requiresVault` are then left out). */
  vault: VaultPort | null;
  clock: Clock;
  http: HttpPort;
  secrets: SecretStore;
  /** Asked before any write, unless the user switched approval off for that tool. */
  approval: ApprovalPort;
  /** The current settings (read at call time, so a change applies to the next call). */
  getSettings: () => CopilotSettings;
}
