import type { TOpenAiAssistantMessage } from "@raas/shared";
import type { Tokenizer } from "../model/model-family.types";

/** One streamed piece of the answer (an OpenAI `delta` without role or tool calls). */
export interface AnswerDelta {
  reasoning_content?: string;
  content?: string;
}

const THINK_OPEN = "<think>";
const THINK_CLOSE = "</think>";
/** Where streamed content must stop until the whole answer is parsed (tool calls, end of turn). */
const CONTENT_MARKERS = ["<tool_call>", "</tool_call>", "<|im_end|>", "<|endoftext|>"];

/**
 * Turns sampled ids into `reasoning_content` and `content` deltas while they arrive, such that the
 * streamed text is always a prefix of what the finished answer says: text that the final parse
 * could still change (a tool-call block, a stop string, a marker cut in half, trailing whitespace
 * that the answer trims, a multi-byte character split across tokens) is held back until it
 * settles or `finish` reconciles with the parsed answer. Tool calls are sent whole by the caller
 * after `finish` (their arguments are only valid JSON once closed).
 *
 * A generation that ends inside an unclosed `<think>` block is the one case where the streamed
 * reasoning is not what the parsed answer says (it then has no reasoning and the whole text as
 * content); `finish` then sends that content whole.
 */
export class AnswerStream {
  private text = "";
  private pendingIds: number[] = [];
  private sentReasoning = "";
  private sentContent = "";
  private readonly contentMarkers: readonly string[];

  constructor(
    private readonly tokenizer: Tokenizer,
    options: { stops: readonly string[] },
  ) {
    this.contentMarkers = [...CONTENT_MARKERS, ...options.stops.filter((stop) => stop !== "")];
  }

  /** Deltas for newly sampled ids (possibly none). */
  push(ids: readonly number[]): AnswerDelta[] {
    this.pendingIds.push(...ids);
    const decoded = this.tokenizer.decode(this.pendingIds);
    // A character split across tokens decodes to U+FFFD until its last byte arrives.
    if (decoded.endsWith("\uFFFD")) return [];
    this.text += decoded;
    this.pendingIds = [];
    const view = settledView(this.text, this.contentMarkers);
    return this.send(view.reasoning, view.content);
  }

  /** The rest of the finished answer's reasoning and content (what was not streamed yet). */
  finish(message: TOpenAiAssistantMessage): AnswerDelta[] {
    return this.send(message.reasoning_content ?? "", message.content ?? "");
  }

  private send(reasoning: string, content: string): AnswerDelta[] {
    const deltas: AnswerDelta[] = [];
    if (reasoning.length > this.sentReasoning.length && reasoning.startsWith(this.sentReasoning)) {
      deltas.push({ reasoning_content: reasoning.slice(this.sentReasoning.length) });
      this.sentReasoning = reasoning;
    }
    if (content.length > this.sentContent.length && content.startsWith(this.sentContent)) {
      deltas.push({ content: content.slice(this.sentContent.length) });
      this.sentContent = content;
    }
    return deltas;
  }
}

/** The reasoning and content of a partial answer that no later token can change. */
function settledView(text: string, markers: readonly string[]): { reasoning: string; content: string } {
  const start = text.trimStart();
  if (THINK_OPEN.startsWith(start)) return { reasoning: "", content: "" };
  if (!start.startsWith(THINK_OPEN)) return { reasoning: "", content: settledContent(text, markers) };
  const body = start.slice(THINK_OPEN.length);
  const close = body.indexOf(THINK_CLOSE);
  if (close === -1) {
    const reasoning = withoutPartialMarker(body, [THINK_CLOSE]);
    return { reasoning: reasoning.replace(/^\n+/, "").replace(/\n+$/, ""), content: "" };
  }
  return {
    reasoning: body.slice(0, close).replace(/^\n+|\n+$/g, ""),
    content: settledContent(body.slice(close + THINK_CLOSE.length), markers),
  };
}

/** Visible text up to the first marker (minus a marker's beginning at the end), trimmed. */
function settledContent(text: string, markers: readonly string[]): string {
  let end = text.length;
  for (const marker of markers) {
    const at = text.indexOf(marker);
    if (at !== -1 && at < end) end = at;
  }
  return withoutPartialMarker(text.slice(0, end), markers).trim();
}

/** `text` without a tail that could be the beginning of one of `markers`. */
function withoutPartialMarker(text: string, markers: readonly string[]): string {
  let cut = text.length;
  for (const marker of markers) {
    for (let length = Math.min(marker.length - 1, text.length); length > 0; length -= 1) {
      if (text.endsWith(marker.slice(0, length))) {
        cut = Math.min(cut, text.length - length);
        break;
      }
    }
  }
  return text.slice(0, cut);
}
