import type { ToolSpec } from "../model-family.types";

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `// line` for each line of a description, at the given indent. */
function commentLines(text: unknown, indent: string): string {
  if (typeof text !== "string" || text.trim() === "") return "";
  return text
    .trim()
    .split("\n")
    .map((line) => `${indent}// ${line}\n`)
    .join("");
}

function hasProperties(schema: Schema): boolean {
  return isSchema(schema.properties) && Object.keys(schema.properties).length > 0;
}

/** A TypeScript-like type for a JSON schema, as harmony writes argument types. */
function renderType(schema: unknown, depth: number): string {
  if (!isSchema(schema)) return "any";
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  if ("const" in schema) return JSON.stringify(schema.const);
  const variants = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(variants)) return variants.map((variant) => renderType(variant, depth)).join(" | ");
  if (Array.isArray(schema.type)) {
    return schema.type.map((type) => renderType({ ...schema, type }, depth)).join(" | ");
  }
  switch (schema.type) {
    case "string":
      return "string";
    case "number":
    case "integer":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array": {
      const item = renderType(schema.items, depth);
      return item.includes(" | ") ? `(${item})[]` : `${item}[]`;
    }
    case "object":
      return hasProperties(schema) ? renderObject(schema, depth) : "object";
    default:
      return hasProperties(schema) ? renderObject(schema, depth) : "any";
  }
}

/**
 * `{` fields `}`: a field's description is a comment on the line above it, an optional field is
 * `name?:`, a default is a trailing `// default: …` comment. The arguments' own fields are not
 * indented, as in the harmony examples; each nested object indents two spaces more.
 */
function renderObject(schema: Schema, depth: number): string {
  const properties = schema.properties as Record<string, unknown>;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const indent = "  ".repeat(depth);
  let out = "{\n";
  for (const [name, property] of Object.entries(properties)) {
    const field = isSchema(property) ? property : {};
    const type = renderType(field, depth + 1);
    const optional = required.has(name) ? "" : "?";
    const fallback = typeof field.default === "string" ? field.default : JSON.stringify(field.default);
    const note = "default" in field ? ` // default: ${fallback}` : "";
    out += `${commentLines(field.description, indent)}${indent}${name}${optional}: ${type},${note}\n`;
  }
  return `${out}${"  ".repeat(Math.max(depth - 1, 0))}}`;
}

/** One `type name = (_: {…}) => any;` (or `() => any` without arguments) with its description above. */
function renderFunction(tool: ToolSpec): string {
  const parameters = tool.parameters;
  const signature = hasProperties(parameters) ? `(_: ${renderType(parameters, 0)})` : "()";
  return `${commentLines(tool.description, "")}type ${tool.name} = ${signature} => any;\n\n`;
}

/**
 * The `# Tools` section of the developer message: the tools as TypeScript-like types in the
 * `functions` namespace, one blank line after each, as the harmony spec writes them.
 */
export function renderHarmonyToolsSection(tools: readonly ToolSpec[]): string {
  return `# Tools\n\n## functions\n\nnamespace functions {\n\n${tools.map(renderFunction).join("")}} // namespace functions`;
}
