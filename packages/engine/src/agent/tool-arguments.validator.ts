/**
 * Checks a tool call's arguments against the tool's JSON schema (the subset tool specs use:
 * object with `properties`, `required`, `additionalProperties: false`, property `type` and
 * `enum`). Returns a message for the model, or null when the arguments fit.
 */
export function validateToolArguments(
  toolName: string,
  schema: Record<string, unknown>,
  args: Record<string, unknown>,
): string | null {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const problems: string[] = [];
  for (const name of required) {
    if (args[name] === undefined) problems.push(`missing required argument "${name}"`);
  }
  for (const [name, value] of Object.entries(args)) {
    const property = properties[name];
    if (!property) {
      if (schema.additionalProperties === false) problems.push(`unknown argument "${name}"`);
      continue;
    }
    const typeProblem = checkType(name, property, value);
    if (typeProblem) problems.push(typeProblem);
  }
  if (problems.length === 0) return null;
  const allowed = Object.keys(properties);
  return (
    `Invalid arguments for ${toolName}: ${problems.join("; ")}.` +
    (allowed.length > 0
      ? ` Arguments: ${allowed.join(", ")} (required: ${required.join(", ") || "none"}).`
      : "")
  );
}

function checkType(name: string, property: Record<string, unknown>, value: unknown): string | null {
  const expected = property.type;
  if (Array.isArray(property.enum) && !property.enum.includes(value)) {
    return `"${name}" must be one of ${property.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  }
  if (typeof expected !== "string") return null;
  if (value === null && property.nullable === true) return null;
  const ok = matchesType(expected, value);
  return ok ? null : `"${name}" must be ${article(expected)} ${expected}, got ${describe(value)}`;
}

function matchesType(expected: string, value: unknown): boolean {
  switch (expected) {
    case "string":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "null":
      return value === null;
    default:
      return true;
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? "an" : "a";
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}
