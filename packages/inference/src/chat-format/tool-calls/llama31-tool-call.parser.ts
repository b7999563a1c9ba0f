import { createMarkerFinder } from "./marker-finder";
import { readBuiltinCall } from "./python-call-literal";
import {
  type CallOutcome,
  checkToolCall,
  collectOutcomes,
  type FamilyParsedResponse,
  type FamilyParseOptions,
  isPlainObject,
  stripTrailingMarkers,
  toolCallError,
  tryParseJson,
} from "./tool-call-result";

const PYTHON_TAG = "<|python_tag|>";
const END_MARKERS = ["<|eom_id|>", "<|eot_id|>", "<|end_of_text|>"];
const FUNCTION_OPEN = "<function=";
const FUNCTION_CLOSE = "</function>";
const JSON_CALL_START = /^\{\s*"name"/;
const EXAMPLE = '{"name": "<tool-name>", "parameters": {<arguments as a JSON object>}}';

/**
 * Parses a Llama 3.1 response in the shapes of Meta's prompt format: a JSON call
 * `{"name": …, "parameters": {…}}` as the whole message (optionally after `<|python_tag|>`, several
 * separated by `;`), a built-in call `<|python_tag|>brave_search.call(query="…")`, code for the
 * code interpreter after `<|python_tag|>` (a `code_interpreter` call with `{code}`), or custom
 * `<function=NAME>{…}</function>` calls. The message ends with `<|eom_id|>` or `<|eot_id|>`.
 * Llama 3.1 has no reasoning block. Never throws; malformed calls are typed errors.
 */
export function parseLlama31Response(text: string, options: FamilyParseOptions = {}): FamilyParsedResponse {
  const body = stripTrailingMarkers(text, END_MARKERS);
  const hasEnded = body.length < text.trimEnd().length;
  const outcomes: CallOutcome[] = [];
  const context = { next: 1, options };
  const tag = body.indexOf(PYTHON_TAG);
  if (tag !== -1) {
    const segments = body.slice(tag + PYTHON_TAG.length).split(PYTHON_TAG);
    segments.forEach((segment, position) => {
      const isLast = position === segments.length - 1;
      parseTaggedSegment(segment.trim(), { isCutOff: isLast && !hasEnded }, outcomes, context);
    });
    return collectOutcomes(outcomes, { thinking: null, content: body.slice(0, tag).trim() });
  }
  const trimmed = body.trim();
  if (JSON_CALL_START.test(trimmed)) {
    parseJsonCalls(trimmed, outcomes, context);
    return collectOutcomes(outcomes, { thinking: null, content: "" });
  }
  const content = parseFunctionTags(body, outcomes, context);
  return collectOutcomes(outcomes, { thinking: null, content: content.trim() });
}

interface ParseContext {
  next: number;
  options: FamilyParseOptions;
}

function parseTaggedSegment(
  segment: string,
  state: { isCutOff: boolean },
  outcomes: CallOutcome[],
  context: ParseContext,
): void {
  // A JSON array is a malformed call list, not code for the interpreter.
  if (segment.startsWith("{") || segment.startsWith("[")) {
    parseJsonCalls(segment, outcomes, context);
    return;
  }
  const index = context.next++;
  if (segment === "") {
    outcomes.push(
      toolCallError(
        "invalid-json",
        index,
        segment,
        `${PYTHON_TAG} is followed by nothing. Write a call as ${EXAMPLE}`,
      ),
    );
    return;
  }
  if (/^[A-Za-z_]\w*\.call\(/.test(segment)) {
    const builtin = readBuiltinCall(segment);
    if ("problem" in builtin) {
      outcomes.push(
        toolCallError(
          "invalid-builtin-call",
          index,
          segment,
          `the built-in tool call could not be read: ${builtin.problem}. Write it as brave_search.call(query="…").`,
        ),
      );
      return;
    }
    outcomes.push(checkToolCall(builtin.name, builtin.arguments, callContext(index, segment, context)));
    return;
  }
  if (state.isCutOff) {
    outcomes.push(
      toolCallError(
        "unterminated",
        index,
        segment,
        "the code after <|python_tag|> was cut off before <|eom_id|>; write shorter code.",
      ),
    );
    return;
  }
  outcomes.push(checkToolCall("code_interpreter", { code: segment }, callContext(index, segment, context)));
}

function callContext(index: number, raw: string, context: ParseContext) {
  return { index, raw, example: EXAMPLE, knownTools: context.options.knownTools };
}

/** One or more JSON call objects, separated by `;` (as vLLM's llama3_json parser accepts). */
function parseJsonCalls(text: string, outcomes: CallOutcome[], context: ParseContext): void {
  for (const raw of splitJsonObjects(text)) {
    const index = context.next++;
    const parsed = tryParseJson(raw);
    if (!("value" in parsed)) {
      outcomes.push(
        toolCallError(
          "invalid-json",
          index,
          raw,
          `the call is not valid JSON (${parsed.reason}). Write it as ${EXAMPLE}`,
        ),
      );
      continue;
    }
    if (!isPlainObject(parsed.value)) {
      outcomes.push(
        toolCallError("not-an-object", index, raw, `expected a JSON object. Write the call as ${EXAMPLE}`),
      );
      continue;
    }
    const object = parsed.value;
    outcomes.push(
      checkToolCall(object.name, object.parameters ?? object.arguments, callContext(index, raw, context)),
    );
  }
}

/**
 * Splits `{…}; {…}` at the top level, respecting JSON strings. An unbalanced or non-object rest
 * becomes one last piece (which then fails to parse and is reported).
 */
function splitJsonObjects(text: string): string[] {
  const pieces: string[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && (text[i] === ";" || /\s/.test(text[i]!))) i += 1;
    if (i >= text.length) break;
    const end = text[i] === "{" ? findObjectEnd(text, i) : -1;
    if (end === -1) {
      pieces.push(text.slice(i).trim());
      break;
    }
    pieces.push(text.slice(i, end));
    i = end;
  }
  return pieces;
}

/** Index just past the object starting at `start`, or -1 when it never closes. */
function findObjectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const char = text[i];
    if (inString) {
      if (char === "\\") i += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{" || char === "[") depth += 1;
    else if (char === "}" || char === "]") {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Custom-tool calls `<function=NAME>{…}</function>`; returns the text outside them. */
function parseFunctionTags(body: string, outcomes: CallOutcome[], context: ParseContext): string {
  const findOpen = createMarkerFinder(body, FUNCTION_OPEN);
  const findClose = createMarkerFinder(body, FUNCTION_CLOSE);
  const findNameEnd = createMarkerFinder(body, ">");
  let rest = "";
  let cursor = 0;
  for (;;) {
    const open = findOpen(cursor);
    if (open === -1) break;
    rest += body.slice(cursor, open);
    const index = context.next++;
    const nameEnd = findNameEnd(open);
    const close = nameEnd === -1 ? -1 : findClose(nameEnd);
    const nextOpen = findOpen(open + FUNCTION_OPEN.length);
    if (close === -1 || (nextOpen !== -1 && nextOpen < close)) {
      const end = nextOpen === -1 ? body.length : nextOpen;
      const raw = body.slice(open, end).trim();
      const problem = `<function=…> was never closed with ${FUNCTION_CLOSE} (the call may have been cut off). Write it as <function=NAME>{…}${FUNCTION_CLOSE}`;
      outcomes.push(toolCallError("unterminated", index, raw, problem));
      cursor = end;
      continue;
    }
    const name = body.slice(open + FUNCTION_OPEN.length, nameEnd).trim();
    const raw = body.slice(nameEnd + 1, close).trim();
    const parsed = tryParseJson(raw);
    if ("value" in parsed) outcomes.push(checkToolCall(name, parsed.value, callContext(index, raw, context)));
    else {
      const problem = `the arguments of ${name} are not valid JSON (${parsed.reason}); write <function=${name}>{…}${FUNCTION_CLOSE}`;
      outcomes.push(toolCallError("invalid-json", index, raw, problem));
    }
    cursor = close + FUNCTION_CLOSE.length;
  }
  return rest + body.slice(cursor);
}
