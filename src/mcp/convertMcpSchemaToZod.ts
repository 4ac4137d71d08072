import { z } from "zod";

/**
 * Turns an MCP tool's `inputSchema` (JSON Schema) into a zod schema that validates the model's
 * arguments before the call reaches the server, so bad arguments come back to the model with the
 * field named. zod's own converter covers what servers send in practice; for a schema it cannot
 * read (e.g. `$ref` to draft-07 `definitions`), arguments are only checked to be an object and
 * the server's own validation has the last word. Either way the server's schema is what the
 * model is shown (`SimpleTool.inputJsonSchema`).
 */
export function convertMcpSchemaToZod(jsonSchema: unknown): { schema: z.ZodType; exact: boolean } {
  if (!isObjectSchema(jsonSchema)) return { schema: z.looseObject({}), exact: false };
  try {
    return { schema: z.fromJSONSchema(jsonSchema), exact: true };
  } catch {
    return { schema: z.looseObject({}), exact: false };
  }
}

function isObjectSchema(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && (value as { type?: unknown }).type === "object";
}
