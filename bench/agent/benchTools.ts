import { z } from "zod";
import type { ToolDefinition } from "../../src/tools/SimpleTool";

/**
 * Ten tools the size of real ones (a few described fields each, guidance in L1), doing no work
 * of their own: what is left of a step's time is the agent's.
 */
export function benchTools(count = 10): ToolDefinition[] {
  return Array.from({ length: count }, (_, index) => {
    const name = `benchTool${index}`;
    return {
      tool: {
        name,
        description: `Looks up record kind ${index} for the user and returns it as a short text. Use it for questions about kind ${index}.`,
        schema: z.object({
          value: z.string().describe("What to look up, in plain words."),
          limit: z.number().int().min(1).max(50).optional().describe("Most records to return."),
          since: z.string().optional().describe("Only records after this ISO date."),
        }),
        isReadOnly: true,
        func: (args) => Promise.resolve(`Record ${index} for "${(args as { value: string }).value}": nothing unusual.`),
      },
      metadata: {
        id: name,
        displayName: `Bench tool ${index}`,
        description: "Benchmark tool.",
        category: "custom",
        customPromptInstructions: `Call ${name} before answering anything about kind ${index}; pass the user's words as value.`,
      },
    };
  });
}
