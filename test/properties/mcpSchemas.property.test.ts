import fc from "fast-check";
import { toOpenAITool } from "../../src/LLMProviders/chainRunner/agentTools";
import { convertMcpSchemaToZod } from "../../src/mcp/convertMcpSchemaToZod";
import { createMcpToolWrapper, type McpToolCaller } from "../../src/mcp/createMcpToolWrapper";
import { refuseAllToolCalls } from "../../src/ports/approval";

/**
 * Property: an MCP tool's JSON Schema round-trips. The zod schema made from it accepts every value
 * that fits the schema (and refuses one that lacks a required field), and what is bound for the
 * model is the server's schema unchanged.
 */

interface Schema {
  type: string;
  description?: string;
  enum?: string[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean;
}

const description = fc.option(fc.string({ maxLength: 20 }), { nil: undefined });
const withDescription = (schema: Schema, text: string | undefined): Schema => (text === undefined ? schema : { ...schema, description: text });

const stringSchema = fc
  .tuple(fc.nat({ max: 5 }), fc.nat({ max: 10 }), description)
  .map(([min, extra, text]) => withDescription({ type: "string", minLength: min, maxLength: min + extra }, text));
const numberSchema = fc
  .tuple(fc.constantFrom("number", "integer"), fc.integer({ min: -1000, max: 1000 }), fc.nat({ max: 1000 }), description)
  .map(([type, min, span, text]) => withDescription({ type, minimum: min, maximum: min + span }, text));
const enumSchema = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 5 }).map((values): Schema => ({ type: "string", enum: values }));
const scalarSchema = fc.oneof(stringSchema, numberSchema, enumSchema, fc.constant<Schema>({ type: "boolean" }), fc.constant<Schema>({ type: "string" }));
const propertySchema = fc.oneof({ weight: 3, arbitrary: scalarSchema }, { weight: 1, arbitrary: scalarSchema.map((items): Schema => ({ type: "array", items })) });

const objectSchema: fc.Arbitrary<Schema> = fc
  .dictionary(fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,11}$/), propertySchema, { minKeys: 0, maxKeys: 6 })
  .chain((properties) =>
    fc.record({
      required: fc.subarray(Object.keys(properties)),
      additionalProperties: fc.option(fc.boolean(), { nil: undefined }),
    }).map(({ required, additionalProperties }): Schema => ({
      type: "object",
      properties,
      required,
      ...(additionalProperties === undefined ? {} : { additionalProperties }),
    })),
  );

/** Values that fit a schema. */
function valueOf(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case "string":
      return fc.string({ unit: "binary", minLength: schema.minLength ?? 0, maxLength: schema.maxLength ?? 20 });
    case "number":
      return fc.double({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9, noNaN: true, noDefaultInfinity: true });
    case "integer":
      return fc.integer({ min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9 });
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(valueOf(schema.items ?? { type: "string" }), { maxLength: 4 });
    default: {
      const properties = schema.properties ?? {};
      const fields = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, valueOf(property)]));
      return fc.record(fields, { requiredKeys: schema.required ?? [] });
    }
  }
}

const caller: McpToolCaller = { callTool: () => Promise.reject(new Error("no server in this test")) };

describe("random MCP tool schemas", () => {
  it("accept every value that fits, refuse one without a required field, and are bound unchanged", () => {
    fc.assert(
      fc.property(
        objectSchema.chain((schema) => fc.tuple(fc.constant(schema), valueOf(schema))),
        ([schema, value]) => {
          const sent = structuredClone(schema);
          const { schema: zodSchema, exact } = convertMcpSchemaToZod(schema);
          expect(exact).toBe(true);
          expect(zodSchema.safeParse(value).success).toBe(true);
          for (const name of schema.required ?? []) {
            const without = { ...(value as Record<string, unknown>) };
            delete without[name];
            expect(zodSchema.safeParse(without).success).toBe(false);
          }

          const definition = createMcpToolWrapper("server", { name: "tool", inputSchema: schema as never }, { caller, approval: refuseAllToolCalls("no"), isAutoApproved: () => false });
          expect(toOpenAITool(definition.tool).function.parameters).toEqual(sent);
          expect(schema).toEqual(sent);
        },
      ),
      { numRuns: 300 },
    );
  });
});
