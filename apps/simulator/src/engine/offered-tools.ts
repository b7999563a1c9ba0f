/** A tool the prompt offers the model, as the harness declared it (`parameters` is a JSON schema). */
export interface OfferedTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

interface FoundTool {
  tool: OfferedTool;
  /** Written as OpenAI's `{"type": "function", "function": {…}}`, as chat templates get them. */
  isWrapped: boolean;
}

/**
 * `{name, parameters}` (Anthropic: `input_schema`) or OpenAI's `{type: "function", function: {…}}`,
 * with an object schema as parameters.
 */
function asTool(value: JsonObject): FoundTool | null {
  const isWrapped = value.type === "function" && isObject(value.function);
  const declared = isWrapped ? (value.function as JsonObject) : value;
  const parameters = declared.parameters ?? declared.input_schema;
  if (typeof declared.name !== "string" || !isObject(parameters)) return null;
  if (parameters.type !== "object" && !isObject(parameters.properties)) return null;
  const description = typeof declared.description === "string" ? declared.description : "";
  return { tool: { name: declared.name, description, parameters }, isWrapped };
}

/** The tools in a parsed JSON value: itself, or the tool-shaped objects anywhere inside it. */
function collectTools(value: unknown, into: FoundTool[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collectTools(item, into);
    return;
  }
  if (!isObject(value)) return;
  const found = asTool(value);
  if (found) {
    into.push(found);
    return;
  }
  for (const inner of Object.values(value)) collectTools(inner, into);
}

/** Index just past the `}` closing the object opened at `start`, skipping strings; -1 if none. */
function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") depth += 1;
    else if (char === "}") {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/**
 * Tool definitions written as JSON, as Hugging Face templates render them (Qwen3's one object a line
 * inside `<tools>…</tools>`, Llama's indented `tojson`): every balanced `{…}` that parses is searched
 * for tool-shaped objects. JSON examples in a harness's long system prompt are not taken for tools:
 * only the last `<tools>` section is read when there is one (a raw newline cannot be inside a JSON
 * string, so `<tools>\n` … `\n</tools>` brackets the rendered list), and where any definition is
 * wrapped as OpenAI's `{"type": "function", …}` (the form templates are given), bare ones are not.
 */
function readJsonTools(text: string): OfferedTool[] {
  const close = text.lastIndexOf("\n</tools>");
  const open = close === -1 ? -1 : text.lastIndexOf("<tools>\n", close);
  const region = open === -1 ? text : text.slice(open, close);
  const found: FoundTool[] = [];
  let i = region.indexOf("{");
  while (i !== -1) {
    const end = objectEnd(region, i);
    // An object that never closes cannot hold a whole definition, nor can any opened after it.
    if (end === -1) break;
    let next = i + 1;
    try {
      collectTools(JSON.parse(region.slice(i, end)), found);
      next = end;
    } catch {
      // Not JSON (prose in braces): an object inside it may still be.
    }
    i = region.indexOf("{", next);
  }
  const isAnyWrapped = found.some((entry) => entry.isWrapped);
  return found.filter((entry) => entry.isWrapped || !isAnyWrapped).map((entry) => entry.tool);
}

/** A JSON schema for a harmony TypeScript-like argument type (enough to find a tool by its fields). */
function harmonyType(type: string): JsonObject {
  const trimmed = type.trim();
  if (trimmed.endsWith("[]")) return { type: "array", items: harmonyType(trimmed.slice(0, -2)) };
  if (/^"[^"]*"( \| "[^"]*")*$/.test(trimmed))
    return { type: "string", enum: trimmed.split(" | ").map((value) => JSON.parse(value) as string) };
  if (["string", "number", "boolean", "null"].includes(trimmed)) return { type: trimmed };
  if (trimmed.startsWith("{") || trimmed === "object") return { type: "object" };
  return {};
}

const HARMONY_FUNCTION = /^type (\w[\w.-]*) = (?:\(\) => any;|\(_: \{)$/;
const HARMONY_FIELD = /^(?<name>\w+)(?<optional>\??): (?<type>.*?),?(?: \/\/ default: .*)?$/;

/**
 * gpt-oss's harmony tools section (`namespace functions { type name = (_: {…}) => any; }`): each
 * function's comment lines are its description, its unindented fields its parameters (nested
 * objects, indented, are kept only as `object`).
 */
function readHarmonyTools(text: string): OfferedTool[] {
  const start = text.indexOf("namespace functions {");
  if (start === -1) return [];
  const lines = text.slice(start).split("\n");
  const tools: OfferedTool[] = [];
  let comments: string[] = [];
  let current: { tool: OfferedTool; properties: JsonObject; required: string[] } | null = null;
  for (const line of lines) {
    if (line.startsWith("} // namespace")) break;
    if (current) {
      if (line.startsWith("}) => any;")) {
        current.tool.parameters.required = current.required;
        current = null;
        comments = [];
        continue;
      }
      const field = HARMONY_FIELD.exec(line);
      if (line.startsWith("// ")) comments.push(line.slice(3));
      else if (field) {
        const { name = "", optional = "", type = "" } = field.groups ?? {};
        current.properties[name] = { ...harmonyType(type), description: comments.join("\n") };
        if (optional === "") current.required.push(name);
        comments = [];
      } else if (!line.startsWith(" ")) comments = [];
      continue;
    }
    const declared = HARMONY_FUNCTION.exec(line);
    if (line.startsWith("// ")) comments.push(line.slice(3));
    else if (declared) {
      const properties: JsonObject = {};
      const tool = {
        name: declared[1] as string,
        description: comments.join("\n"),
        parameters: { type: "object", properties },
      };
      tools.push(tool);
      comments = [];
      if (line.endsWith("(_: {")) current = { tool, properties, required: [] };
    } else comments = [];
  }
  return tools;
}

/**
 * The tools a rendered prompt's opening (system part) offers, read back from the text the family's
 * template wrote: JSON definitions (Qwen3, Llama and other Hugging Face templates) or harmony's
 * TypeScript-like namespace (gpt-oss). Empty when the template renders no tools.
 */
export function readOfferedTools(openingText: string): OfferedTool[] {
  const harmony = readHarmonyTools(openingText);
  return harmony.length > 0 ? harmony : readJsonTools(openingText);
}
