/**
 * Recognises tool-call and reasoning formats in text a chat template rendered, by their markers.
 * Only formats listed here are "known"; anything else is reported as unknown, never guessed.
 */

/** The tool call every probe renders: this name with these arguments. */
export const PROBE_TOOL_NAME = "probe_lookup_weather";
export const PROBE_TOOL_ARGUMENTS = { city: "Probeville" };

/** Tool-call formats the probe recognises in a rendered assistant tool call. */
export type ToolCallFormat =
  /** Qwen/Hermes: `<tool_call>{"name": …, "arguments": …}</tool_call>`. */
  | "hermes-json"
  /** Llama 3.1/3.2: a bare `{"name": …, "parameters": …}` object, `<|python_tag|>` for built-in tools. */
  | "llama3-json"
  /** DeepSeek V3: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>name …`. */
  | "deepseek-v3"
  /** gpt-oss harmony: `<|channel|>commentary` addressed `to=functions.name`. */
  | "harmony";

/** Reasoning formats the probe recognises around rendered reasoning content. */
export type ReasoningFormat =
  /** `<think>…</think>` (Qwen3, DeepSeek R1 and their descendants). */
  | "think-tags"
  /** gpt-oss harmony: reasoning on the `<|channel|>analysis` channel. */
  | "harmony-analysis";

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** True when `value` (an object or its JSON text) carries the probe's arguments. */
function hasProbeArguments(value: unknown): boolean {
  const object = typeof value === "string" ? parseJsonObject(value) : value;
  if (typeof object !== "object" || object === null) return false;
  return Object.entries(PROBE_TOOL_ARGUMENTS).every(
    ([key, expected]) => (object as Record<string, unknown>)[key] === expected,
  );
}

/** The balanced `{…}` objects in `text` (strings with braces inside are respected). */
function jsonObjectsIn(text: string): Record<string, unknown>[] {
  const objects: Record<string, unknown>[] = [];
  for (let start = text.indexOf("{"); start !== -1; start = text.indexOf("{", start + 1)) {
    let depth = 0;
    let inString = false;
    for (let index = start; index < text.length; index++) {
      const char = text[index];
      if (inString) {
        if (char === "\\") index++;
        else if (char === '"') inString = false;
      } else if (char === '"') inString = true;
      else if (char === "{") depth++;
      else if (char === "}" && --depth === 0) {
        const object = parseJsonObject(text.slice(start, index + 1));
        if (object) objects.push(object);
        break;
      }
    }
  }
  return objects;
}

function isHermesJson(text: string): boolean {
  for (const match of text.matchAll(/<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g)) {
    const call = parseJsonObject(match[1] ?? "");
    if (call?.name === PROBE_TOOL_NAME && hasProbeArguments(call.arguments)) return true;
  }
  return false;
}

function isLlama3Json(text: string): boolean {
  return jsonObjectsIn(text).some(
    (call) => call.name === PROBE_TOOL_NAME && hasProbeArguments(call.parameters),
  );
}

function isDeepSeekV3(text: string): boolean {
  const begin = text.indexOf("<｜tool▁calls▁begin｜>");
  if (begin === -1) return false;
  const calls = text.slice(begin);
  const header = `<｜tool▁sep｜>${PROBE_TOOL_NAME}`;
  const at = calls.indexOf(header);
  if (at === -1 || !calls.includes("<｜tool▁call▁begin｜>")) return false;
  const end = calls.indexOf("<｜tool▁call▁end｜>", at);
  return jsonObjectsIn(calls.slice(at, end === -1 ? undefined : end)).some(hasProbeArguments);
}

function isHarmony(text: string): boolean {
  const address = text.indexOf(`to=functions.${PROBE_TOOL_NAME}`);
  if (address === -1) return false;
  const message = text.slice(address);
  const end = message.indexOf("<|call|>");
  return (
    text.includes("<|channel|>commentary") &&
    jsonObjectsIn(message.slice(0, end === -1 ? undefined : end)).some(hasProbeArguments)
  );
}

/**
 * The known format of the probe tool call rendered in `text`, or undefined. The more specific
 * formats are checked first: a harmony or DeepSeek call also contains a bare JSON object.
 */
export function detectToolCallFormat(text: string): ToolCallFormat | undefined {
  if (isHarmony(text)) return "harmony";
  if (isDeepSeekV3(text)) return "deepseek-v3";
  if (isHermesJson(text)) return "hermes-json";
  if (isLlama3Json(text)) return "llama3-json";
  return undefined;
}

/**
 * The known format wrapped around `reasoning` in `text`, or undefined: the reasoning must sit
 * inside `<think>…</think>` or right after a harmony analysis channel header.
 */
export function detectReasoningFormat(text: string, reasoning: string): ReasoningFormat | undefined {
  const at = text.indexOf(reasoning);
  if (at === -1) return undefined;
  const before = text.slice(0, at);
  const after = text.slice(at + reasoning.length);
  const lastOpen = before.lastIndexOf("<think>");
  if (lastOpen !== -1 && !before.slice(lastOpen).includes("</think>") && after.includes("</think>")) {
    return "think-tags";
  }
  if (/<\|channel\|>analysis(<\|message\|>)?\s*$/.test(before)) return "harmony-analysis";
  return undefined;
}
