import { defuseQuestionLabel } from "../context/escapeXml";

/**
 * A server's tool description or input schema with the question label defused in every text it
 * holds (descriptions, titles, enum values, property names, at any depth), so nothing a server
 * lists can read to the model as the user's question. Text without a label is kept as it is, so
 * an ordinary schema is bound unchanged.
 */
export function defuseSchemaText<T>(value: T): T {
  return defuse(value) as T;
}

function defuse(value: unknown): unknown {
  if (typeof value === "string") return defuseQuestionLabel(value);
  if (Array.isArray(value)) return value.map(defuse);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([key, entry]) => [defuseQuestionLabel(key), defuse(entry)]));
}
