import type { ModelFamilyAdapter } from "@raas/inference";
import type { TMalformedMode } from "./policy-config.schema";

/** The malformed modes that are a broken tool call (`overlong` is a length cut instead). */
export type TMalformedCallMode = Exclude<TMalformedMode, "overlong">;

// Hermes (Qwen3) calls: what a family with no tool-call format of its own is sent (plain text to it).
const HERMES_CALLS: Record<TMalformedCallMode, string> = {
  "invalid-json": '<tool_call>\n{"name": "bash", "arguments": {"command": "ls"\n</tool_call>',
  "unclosed-tag": '<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}',
  "unknown-tool": '<tool_call>\n{"name": "launch_rockets", "arguments": {}}\n</tool_call>',
  "missing-name": '<tool_call>\n{"arguments": {"command": "ls"}}\n</tool_call>',
};

/** The closing braces after the last `"ls"` removed: the arguments' JSON never ends. */
function withoutClosingBraces(text: string): string {
  const at = text.lastIndexOf('"ls"') + '"ls"'.length;
  let end = at;
  while (text[end] === "}") end += 1;
  return text.slice(0, at) + text.slice(end);
}

/**
 * Each malformed tool call in the family's own format, made by breaking a valid call the family
 * renders (for Qwen3, the Hermes texts exactly). A mode the format cannot express — it breaks
 * nothing the family's parser checks: Llama 3 has no closing tag, and its parser reads JSON
 * without a name as content; harmony and DeepSeek V3 name the tool outside the JSON — gets the
 * invalid-JSON call instead; a family with no tool-call format gets the Hermes texts.
 */
export function writeMalformedCalls(family: ModelFamilyAdapter): Record<TMalformedCallMode, string> {
  const render = (name: string, args: Record<string, unknown>) => {
    try {
      return family.renderAssistant({ toolCalls: [{ name, arguments: args }] });
    } catch {
      return undefined;
    }
  };
  const valid = render("bash", { command: "ls" });
  const unknown = render("launch_rockets", {});
  if (valid === undefined || unknown === undefined) return HERMES_CALLS;
  const isMalformed = (text: string) => {
    const parsed = family.parseResponse(text, { knownTools: ["bash"] });
    return parsed.toolCalls.length === 0 && parsed.toolCallErrors.length > 0;
  };
  const invalidJson = withoutClosingBraces(valid);
  if (!isMalformed(invalidJson)) return HERMES_CALLS;
  const orInvalidJson = (text: string) => (isMalformed(text) ? text : invalidJson);
  return {
    "invalid-json": invalidJson,
    "unclosed-tag": orInvalidJson(valid.slice(0, valid.lastIndexOf("}") + 1)),
    "unknown-tool": orInvalidJson(unknown),
    "missing-name": orInvalidJson(valid.replace(/"name":\s*"bash",\s*/, "")),
  };
}
