import { DEFAULT_SETTINGS } from "../constants";
import { settingsRuleOf } from "./settingsRules";
import { copilotSettingsSchema, mcpServerListSchema, otherModelsSchema, secretIdSchema } from "./settingsSchema";

const firstIssue = (result: { error?: { issues: unknown[] } }) => result.error!.issues[0] as Parameters<typeof settingsRuleOf>[0];

describe("the settings schema's own rules, by case", () => {
  it("names two models of one name, with the name, beside its English sentence", () => {
    const model = { ...DEFAULT_SETTINGS.provider, model: "модель-模型 🦙" };
    const issue = firstIssue(otherModelsSchema.safeParse([model, { ...model }]));
    expect(issue.message).toBe('Two models are named "модель-模型 🦙".');
    expect(issue.path).toEqual([1, "model"]);
    expect(settingsRuleOf(issue)).toEqual({ rule: "duplicate-model", name: "модель-模型 🦙" });
  });

  it("names two MCP servers of one name, with the name", () => {
    const server = { name: "files-2", enabled: true, transport: "stdio" as const, command: "npx", args: [], env: {} };
    const issue = firstIssue(mcpServerListSchema.safeParse([server, { ...server, command: "سيرفر" }]));
    expect(issue.message).toBe('Two servers are named "files-2".');
    expect(settingsRuleOf(issue)).toEqual({ rule: "duplicate-server", name: "files-2" });
  });

  it("names a secret's id that is not one, and a server name with other letters", () => {
    const secret = firstIssue(secretIdSchema.safeParse("Ключ_API"));
    expect(secret.message).toBe("lowercase letters, digits and dashes only");
    expect(settingsRuleOf(secret)).toEqual({ rule: "secret-id" });
    const named = firstIssue(copilotSettingsSchema.shape.mcpServers.safeParse([{ name: "ไฟล์", enabled: true, transport: "http", url: "https://example.com/mcp", headers: {} }]));
    expect(named.path).toEqual([0, "name"]);
    expect(settingsRuleOf(named)).toEqual({ rule: "server-name" });
  });

  it("leaves zod's own checks to zod's words", () => {
    expect(settingsRuleOf(firstIssue(copilotSettingsSchema.shape.provider.shape.temperature.safeParse(7)))).toBeUndefined();
    expect(settingsRuleOf(firstIssue(copilotSettingsSchema.shape.provider.shape.baseUrl.safeParse("адрес")))).toBeUndefined();
  });
});
