import { z } from "zod";

type JsonSchemaType = "string" | "number" | "integer" | "boolean" | "array" | "object" | "null";

/** JSON types of each top-level input property, from the schema's JSON Schema (io: input). */
export function propertyTypesOf(schema: z.ZodType | null): Map<string, JsonSchemaType[]> {
  const types = new Map<string, JsonSchemaType[]>();
  if (schema === null) return types;
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, { type?: JsonSchemaType | JsonSchemaType[] }>;
  };
  for (const [key, property] of Object.entries(json.properties ?? {})) {
    const type = property.type;
    types.set(key, type === undefined ? [] : Array.isArray(type) ? type : [type]);
  }
  return types;
}

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Turns a query string into an input object: numbers and booleans are coerced where the schema
 * expects them, repeated keys become arrays. Values that do not coerce stay strings so the
 * schema reports them (`limit: expected number, received string`).
 */
export function coerceQuery(
  query: URLSearchParams,
  types: Map<string, JsonSchemaType[]>,
): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    const expected = types.get(key) ?? [];
    const coerced = values.map((value) => coerceOne(value, expected));
    input[key] = expected.includes("array") || coerced.length > 1 ? coerced : coerced[0];
  }
  return input;
}

function coerceOne(value: string, expected: JsonSchemaType[]): unknown {
  if ((expected.includes("number") || expected.includes("integer")) && NUMERIC.test(value.trim()))
    return Number(value);
  if (expected.includes("boolean") && (value === "true" || value === "false")) return value === "true";
  return value;
}
