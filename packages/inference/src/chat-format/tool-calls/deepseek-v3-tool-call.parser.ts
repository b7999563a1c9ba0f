import { createMarkerFinder } from "./marker-finder";
import {
  type CallOutcome,
  checkToolCall,
  collectOutcomes,
  type FamilyParsedResponse,
  type FamilyParseOptions,
  stripTrailingMarkers,
  toolCallError,
  tryParseJson,
} from "./tool-call-result";

const CALLS_BEGIN = "<｜tool▁calls▁begin｜>";
const CALLS_END = "<｜tool▁calls▁end｜>";
const CALL_BEGIN = "<｜tool▁call▁begin｜>";
const CALL_END = "<｜tool▁call▁end｜>";
const SEP = "<｜tool▁sep｜>";
/** Outside the calls section (before it, or after its end) these markers are stray. */
const STRAY_MARKERS = [CALL_BEGIN, CALLS_END, CALL_END, SEP];
const END_OF_SENTENCE = "<｜end▁of▁sentence｜>";
const FENCED = /^```(?:json)?[ \t]*\n?([\s\S]*?)\n?```$/;
const EXAMPLE = `${CALL_BEGIN}function${SEP}<tool-name>\n\`\`\`json\n{<arguments as a JSON object>}\n\`\`\`${CALL_END}`;

/**
 * Parses a DeepSeek V3 response as its chat template writes assistant tool calls: optional content,
 * then `<｜tool▁calls▁begin｜>` and one `<｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{…}\n```<｜tool▁call▁end｜>`
 * per call (newline-separated), then `<｜tool▁calls▁end｜>`. V3 has no reasoning block. Never throws;
 * every malformed call is a typed error for the policy.
 */
export function parseDeepSeekV3Response(
  text: string,
  options: FamilyParseOptions = {},
): FamilyParsedResponse {
  const body = stripTrailingMarkers(text, [END_OF_SENTENCE]);
  const outcomes: CallOutcome[] = [];
  const context = { next: 1 };
  // Lenient: calls without the section opener are still read as calls.
  const sectionOpen = body.indexOf(CALLS_BEGIN);
  const firstCall = body.indexOf(CALL_BEGIN);
  const isOpenedBySection = sectionOpen !== -1 && (firstCall === -1 || sectionOpen < firstCall);
  const sectionStart = isOpenedBySection ? sectionOpen : firstCall;
  const callsFrom = isOpenedBySection ? sectionOpen + CALLS_BEGIN.length : firstCall;
  if (sectionStart === -1) {
    const content = scanStrayMarkers(body, outcomes, context);
    return collectOutcomes(outcomes, { thinking: null, content: content.trim() });
  }
  const before = scanStrayMarkers(body.slice(0, sectionStart), outcomes, context);
  const sectionEnd = body.indexOf(CALLS_END, callsFrom);
  const section = body.slice(callsFrom, sectionEnd === -1 ? body.length : sectionEnd);
  const after = sectionEnd === -1 ? "" : body.slice(sectionEnd + CALLS_END.length);
  parseCallSection(section, options, outcomes, context);
  const trailing = scanStrayMarkers(after.replaceAll(CALLS_BEGIN, ""), outcomes, context);
  const content = [before.trim(), trailing.trim()].filter((part) => part !== "").join("\n");
  return collectOutcomes(outcomes, { thinking: null, content });
}

/** Reports call markers outside the calls section and returns the text without them. */
function scanStrayMarkers(text: string, outcomes: CallOutcome[], context: { next: number }): string {
  let cleaned = text;
  for (const marker of STRAY_MARKERS) {
    if (!cleaned.includes(marker)) continue;
    outcomes.push(
      toolCallError(
        "stray-marker",
        context.next++,
        cleaned.trim(),
        `found ${marker} outside a tool call. Write each call as ${EXAMPLE}`,
      ),
    );
    cleaned = cleaned.replaceAll(marker, "");
  }
  return cleaned;
}

function parseCallSection(
  section: string,
  options: FamilyParseOptions,
  outcomes: CallOutcome[],
  context: { next: number },
): void {
  const findOpen = createMarkerFinder(section, CALL_BEGIN);
  const findClose = createMarkerFinder(section, CALL_END);
  let cursor = 0;
  for (;;) {
    const open = findOpen(cursor);
    const strayEnd = findClose(cursor);
    if (strayEnd !== -1 && (open === -1 || strayEnd < open)) {
      outcomes.push(
        toolCallError(
          "stray-marker",
          context.next++,
          section.slice(cursor, strayEnd).trim(),
          `found ${CALL_END} without a matching ${CALL_BEGIN}. Write each call as ${EXAMPLE}`,
        ),
      );
      cursor = strayEnd + CALL_END.length;
      continue;
    }
    if (open === -1) return;
    const index = context.next++;
    const from = open + CALL_BEGIN.length;
    const close = findClose(from);
    const nextOpen = findOpen(from);
    if (close === -1 || (nextOpen !== -1 && nextOpen < close)) {
      const end = nextOpen === -1 ? section.length : nextOpen;
      outcomes.push(
        toolCallError(
          "unterminated",
          index,
          section.slice(from, end).trim(),
          `${CALL_BEGIN} was never closed with ${CALL_END} (the call may have been cut off). Write each call as ${EXAMPLE}`,
        ),
      );
      cursor = end;
      continue;
    }
    outcomes.push(parseOneCall(section.slice(from, close), index, options));
    cursor = close + CALL_END.length;
  }
}

function parseOneCall(raw: string, index: number, options: FamilyParseOptions): CallOutcome {
  const trimmedRaw = raw.trim();
  const sep = raw.indexOf(SEP);
  if (sep === -1) {
    return toolCallError(
      "malformed-header",
      index,
      trimmedRaw,
      `expected "function${SEP}<tool-name>" at the start of the call. Write each call as ${EXAMPLE}`,
    );
  }
  const type = raw.slice(0, sep).trim();
  if (type !== "function") {
    return toolCallError(
      "malformed-header",
      index,
      trimmedRaw,
      `the call type must be "function", not "${type}". Write each call as ${EXAMPLE}`,
    );
  }
  const afterSep = raw.slice(sep + SEP.length);
  const newline = afterSep.indexOf("\n");
  const name = (newline === -1 ? afterSep : afterSep.slice(0, newline)).trim();
  const payload = (newline === -1 ? "" : afterSep.slice(newline + 1)).trim();
  const fenced = FENCED.exec(payload);
  const json = (fenced ? fenced[1]! : payload).trim();
  if (json === "") {
    return toolCallError(
      "invalid-json",
      index,
      trimmedRaw,
      `the call has no JSON arguments. Write each call as ${EXAMPLE}`,
    );
  }
  const parsed = tryParseJson(json);
  if (!("value" in parsed)) {
    return toolCallError(
      "invalid-json",
      index,
      trimmedRaw,
      `the arguments are not valid JSON (${parsed.reason}). Write each call as ${EXAMPLE}`,
    );
  }
  return checkToolCall(name, parsed.value, {
    index,
    raw: trimmedRaw,
    example: EXAMPLE,
    knownTools: options.knownTools,
  });
}
