import { createMarkerFinder } from "./marker-finder";
import {
  type CallOutcome,
  checkToolCall,
  collectOutcomes,
  type FamilyParsedResponse,
  type FamilyParseOptions,
  toolCallError,
  tryParseJson,
} from "./tool-call-result";

const START = "<|start|>";
const CHANNEL = "<|channel|>";
const MESSAGE = "<|message|>";
const TERMINATORS = ["<|end|>", "<|call|>", "<|return|>"];
/** Markers that begin the next message: reaching one before a terminator means the message never ended. */
const BOUNDARIES = [START, CHANNEL];
const CHANNELS = ["analysis", "commentary", "final"];
const EXAMPLE =
  "<|channel|>commentary to=functions.<tool-name> <|constrain|>json<|message|>{<arguments>}<|call|>";

/**
 * Parses a gpt-oss (harmony) response: a sequence of messages `<|channel|>NAME[ to=RECIPIENT]
 * [<|constrain|>json]<|message|>BODY` ended by `<|end|>`, `<|call|>` or `<|return|>`, later ones
 * after `<|start|>assistant`. The analysis channel is reasoning, final and recipient-less
 * commentary are content, and a message with `to=functions.NAME` (the recipient may also sit
 * before the channel) is a tool call with a JSON body. Never throws; malformed calls, unknown
 * channels and cut-off calls are typed errors.
 */
export function parseHarmonyResponse(text: string, options: FamilyParseOptions = {}): FamilyParsedResponse {
  const finders = {
    message: createMarkerFinder(text, MESSAGE),
    terminators: TERMINATORS.map((marker) => ({ marker, find: createMarkerFinder(text, marker) })),
    boundaries: BOUNDARIES.map((marker) => ({ marker, find: createMarkerFinder(text, marker) })),
  };
  const outcomes: CallOutcome[] = [];
  const thinking: string[] = [];
  const content: string[] = [];
  let next = 1;
  let cursor = 0;
  while (cursor < text.length) {
    const messageAt = finders.message(cursor);
    if (messageAt === -1) {
      const rest = text.slice(cursor);
      const leftover = rest
        .replaceAll(START, "")
        .replace(/^\s*assistant/, "")
        .trim();
      if (leftover === "") break;
      if (cursor === 0 && !TERMINATORS.some((marker) => rest.includes(marker)) && !rest.includes(CHANNEL)) {
        // No harmony structure at all: plain text is read as the answer.
        content.push(leftover);
        break;
      }
      const isCall = /\bto=/.test(rest);
      const problem = isCall
        ? `the call was cut off before ${MESSAGE} and its arguments. Write each call as ${EXAMPLE}`
        : `a message header is not followed by ${MESSAGE}. Write each call as ${EXAMPLE}`;
      outcomes.push(
        toolCallError(isCall ? "unterminated" : "malformed-header", next++, rest.trim(), problem),
      );
      break;
    }
    const header = text.slice(cursor, messageAt);
    const bodyStart = messageAt + MESSAGE.length;
    const end = findBodyEnd(finders, bodyStart, text.length);
    const body = text.slice(bodyStart, end.at);
    cursor = end.at + end.length;
    const channel = /<\|channel\|>\s*([^\s<]*)/.exec(header)?.[1];
    const recipient = /(?:^|\s|>)to=([^\s<]+)/.exec(header)?.[1];
    const raw = `${header}${MESSAGE}${body}`.trim();
    if (channel === undefined || !CHANNELS.includes(channel)) {
      const problem =
        channel === undefined || channel === ""
          ? `the message has no ${CHANNEL}. Write each call as ${EXAMPLE}`
          : `unknown channel "${channel}" (use analysis, commentary or final). Write each call as ${EXAMPLE}`;
      outcomes.push(toolCallError("malformed-header", next++, raw, problem));
      continue;
    }
    if (recipient === undefined) {
      if (channel === "analysis") thinking.push(body.trim());
      else content.push(body.trim());
      continue;
    }
    const index = next++;
    if (channel === "final") {
      const problem = `the final channel cannot address a tool; send calls on the commentary channel: ${EXAMPLE}`;
      outcomes.push(toolCallError("malformed-header", index, raw, problem));
      continue;
    }
    if (!end.isTerminated) {
      const problem = `the call to ${recipient} was cut off before <|call|>. Write each call as ${EXAMPLE}`;
      outcomes.push(toolCallError("unterminated", index, raw, problem));
      continue;
    }
    outcomes.push(parseCallBody(recipient, body.trim(), { index, raw, options }));
  }
  return collectOutcomes(outcomes, {
    thinking: thinking.length === 0 ? null : thinking.filter((part) => part !== "").join("\n"),
    content: content.filter((part) => part !== "").join("\n"),
  });
}

type Finder = (from: number) => number;

function findBodyEnd(
  finders: {
    terminators: { marker: string; find: Finder }[];
    boundaries: { marker: string; find: Finder }[];
  },
  from: number,
  textLength: number,
): { at: number; length: number; isTerminated: boolean } {
  let best = { at: textLength, length: 0, isTerminated: false };
  for (const { marker, find } of finders.terminators) {
    const at = find(from);
    if (at !== -1 && at < best.at) best = { at, length: marker.length, isTerminated: true };
  }
  for (const { find } of finders.boundaries) {
    const at = find(from);
    // The next message starts here; this one is unterminated and the header parse resumes at `at`.
    if (at !== -1 && at < best.at) best = { at, length: 0, isTerminated: false };
  }
  return best;
}

function parseCallBody(
  recipient: string,
  body: string,
  context: { index: number; raw: string; options: FamilyParseOptions },
): CallOutcome {
  const { index, raw, options } = context;
  const isFunction = recipient.startsWith("functions.");
  const name = isFunction ? recipient.slice("functions.".length) : recipient;
  const check = { index, raw, example: EXAMPLE, knownTools: options.knownTools };
  // The built-in python tool takes code, not JSON.
  if (!isFunction && name === "python") return checkToolCall(name, { code: body }, check);
  const parsed = tryParseJson(body);
  if (!("value" in parsed)) {
    const problem = `the arguments of ${name} are not valid JSON (${parsed.reason}). Write each call as ${EXAMPLE}`;
    return toolCallError("invalid-json", index, raw, problem);
  }
  return checkToolCall(name, parsed.value, check);
}
