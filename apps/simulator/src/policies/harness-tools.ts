import type { ToolCall } from "@raas/inference";
import type { OfferedTool } from "../engine/offered-tools";

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function propertiesOf(tool: OfferedTool): Record<string, Schema> {
  const properties = tool.parameters.properties;
  if (!isSchema(properties)) return {};
  return Object.fromEntries(Object.entries(properties).filter(([, schema]) => isSchema(schema))) as Record<
    string,
    Schema
  >;
}

function requiredOf(tool: OfferedTool): string[] {
  const required = tool.parameters.required;
  return Array.isArray(required) ? required.filter((name): name is string => typeof name === "string") : [];
}

function typesOf(schema: Schema): string[] {
  if (Array.isArray(schema.type))
    return schema.type.filter((type): type is string => typeof type === "string");
  return typeof schema.type === "string" ? [schema.type] : [];
}

/** A free string (not an enum: `str_replace_editor`'s `command` picks a sub-command, it runs nothing). */
function isFreeString(schema: Schema): boolean {
  return typesOf(schema).includes("string") && !Array.isArray(schema.enum);
}

function isStringArray(schema: Schema): boolean {
  return (
    typesOf(schema).includes("array") && isSchema(schema.items) && typesOf(schema.items).includes("string")
  );
}

/** How a shell tool takes its command: a string, or an argv (Codex `shell`: `["bash", "-lc", …]`). */
export interface ShellTool {
  tool: OfferedTool;
  commandParam: string;
  takesArgv: boolean;
}

export interface WriteTool {
  tool: OfferedTool;
  pathParam: string;
  contentParam: string;
}

const COMMAND_PARAMS = ["command", "cmd", "script", "commands", "shell_command", "bash_command"];
const PATH_PARAMS = ["file_path", "filePath", "path", "absolute_path", "filepath", "file", "filename"];
const CONTENT_PARAMS = ["content", "contents", "file_text", "text", "data"];

/**
 * The tool that runs shell commands: one with a command parameter (a string, or an array of
 * strings), ranked by what its name and description say. Claude Code's `SlashCommand` also takes
 * a string `command`, so the shell words weigh more than the parameter's name.
 */
export function findShellTool(tools: readonly OfferedTool[]): ShellTool | null {
  let best: { found: ShellTool; score: number } | null = null;
  for (const tool of tools) {
    const properties = propertiesOf(tool);
    const commandParam = COMMAND_PARAMS.find((name) => {
      const schema = properties[name];
      return schema !== undefined && (isFreeString(schema) || isStringArray(schema));
    });
    if (commandParam === undefined) continue;
    const required = requiredOf(tool);
    let score = required.includes(commandParam) ? 2 : 0;
    if (/bash|shell|exec|terminal|run_?command|^sh$/i.test(tool.name)) score += 4;
    if (/\b(shell|bash|terminal)\b/i.test(tool.description)) score += 2;
    if (/\bcommand/i.test(tool.description)) score += 1;
    if (/\bslash command|\bsub-?agent/i.test(tool.description)) score -= 4;
    // Parameters no command could fill (an id of a running session, say) mark a helper tool.
    if (required.some((name) => name !== commandParam && /(^|_)id$|Id$/.test(name))) score -= 4;
    if (score > 0 && (best === null || score > best.score)) {
      best = {
        found: { tool, commandParam, takesArgv: isStringArray(properties[commandParam] as Schema) },
        score,
      };
    }
  }
  return best?.found ?? null;
}

/** The tool that writes a whole file: a string path and a string content, and nothing else it needs. */
export function findWriteTool(tools: readonly OfferedTool[]): WriteTool | null {
  let best: { found: WriteTool; score: number } | null = null;
  for (const tool of tools) {
    const properties = propertiesOf(tool);
    const has = (name: string) => properties[name] !== undefined && isFreeString(properties[name] as Schema);
    const pathParam = PATH_PARAMS.find(has);
    const contentParam = CONTENT_PARAMS.find(has);
    if (pathParam === undefined || contentParam === undefined) continue;
    // An editor that also needs the old text (`old_string`) cannot create a file from nothing.
    const others = requiredOf(tool).filter((name) => name !== pathParam && name !== contentParam);
    if (others.some((name) => !canDefault(properties[name]))) continue;
    let score = 1;
    if (/write|create|save/i.test(tool.name)) score += 2;
    if (/\b(write|writes|create|overwrite)/i.test(tool.description)) score += 1;
    if (best === null || score > best.score) best = { found: { tool, pathParam, contentParam }, score };
  }
  return best?.found ?? null;
}

/** A required parameter the script says nothing about can be filled when its type has a harmless value. */
function canDefault(schema: Schema | undefined): boolean {
  if (schema === undefined) return false;
  if ("default" in schema || Array.isArray(schema.enum)) return true;
  return typesOf(schema).some((type) => ["boolean", "string", "array", "object"].includes(type));
}

/**
 * Values for the required parameters a call leaves out: the schema's default, else a harmless one
 * by type (`false` for Qwen Code's `is_background`, a short phrase for opencode's `description`).
 * Optional ones stay out, so the tool uses its own defaults.
 */
function fillRequired(
  tool: OfferedTool,
  given: Record<string, unknown>,
  summary: string,
): Record<string, unknown> {
  const properties = propertiesOf(tool);
  const filled = { ...given };
  for (const name of requiredOf(tool)) {
    if (name in filled) continue;
    const schema = properties[name] ?? {};
    const types = typesOf(schema);
    if ("default" in schema) filled[name] = schema.default;
    else if (Array.isArray(schema.enum)) filled[name] = schema.enum[0];
    else if (types.includes("boolean")) filled[name] = false;
    else if (types.includes("string")) filled[name] = summary;
    else if (types.includes("array")) filled[name] = [];
    else if (types.includes("object")) filled[name] = {};
    else if (types.includes("integer") || types.includes("number"))
      filled[name] = typeof schema.minimum === "number" ? schema.minimum : 1;
  }
  return filled;
}

/** A short description of a command, for tools that want one (5–10 words in opencode's words). */
function summarize(command: string): string {
  const firstLine = command.split("\n")[0] as string;
  return `Run ${firstLine.length > 60 ? `${firstLine.slice(0, 57)}...` : firstLine}`;
}

export function shellCall(shell: ShellTool, command: string): ToolCall {
  const value = shell.takesArgv ? ["bash", "-lc", command] : command;
  return {
    name: shell.tool.name,
    arguments: fillRequired(shell.tool, { [shell.commandParam]: value }, summarize(command)),
  };
}

export function writeCall(write: WriteTool, path: string, content: string): ToolCall {
  return {
    name: write.tool.name,
    arguments: fillRequired(
      write.tool,
      { [write.pathParam]: path, [write.contentParam]: content },
      `Write ${path}`,
    ),
  };
}

/** A shell command writing `content` to `path` byte for byte, for harnesses with no write tool. */
export function heredocWrite(path: string, content: string): string {
  const lines = new Set(content.split("\n"));
  let delimiter = "RAAS_FILE";
  for (let n = 1; lines.has(delimiter); n += 1) delimiter = `RAAS_FILE_${n}`;
  const quoted = `'${path.replaceAll("'", "'\\''")}'`;
  const mkdir = `mkdir -p "$(dirname ${quoted})"`;
  // A heredoc always ends its text with a newline; content without one goes through `printf %s
  // "$(…)"`, whose substitution drops exactly that newline (the content has none of its own).
  if (content === "" || content.endsWith("\n")) {
    return `${mkdir} && cat > ${quoted} <<'${delimiter}'\n${content}${delimiter}`;
  }
  return `${mkdir} && printf %s "$(cat <<'${delimiter}'\n${content}\n${delimiter}\n)" > ${quoted}`;
}
