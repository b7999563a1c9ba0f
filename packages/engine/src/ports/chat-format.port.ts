import type { ToolSpec } from "./sandbox-runtime.port";

/** A tool call the model made, with its arguments as a JSON object. */
export interface ChatToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** A tool call the model attempted but wrote wrongly (bad JSON, unclosed tag, no name, …). */
interface ChatCallError {
  /** The raw text of the attempt. */
  raw: string;
  /** Written for the model to read: what was wrong and how to write it instead. */
  message: string;
}

/** One model response split into its parts. */
export interface ParsedChatResponse {
  /** Content of the thinking block; null when there was none. */
  thinking: string | null;
  /** Visible text outside thinking and tool-call blocks, trimmed. */
  content: string;
  /** Well-formed tool calls in the order written. Tool names are not checked against a list. */
  toolCalls: ChatToolCall[];
  /** Malformed tool-call attempts. */
  callErrors: ChatCallError[];
}

/** A message appended after a response: a tool result or a plain user message (feedback). */
export interface ChatObservation {
  role: "tool" | "user";
  content: string;
  /** The tool a `tool` observation answers (harmony addresses results as `functions.NAME`). */
  toolName?: string;
}

/** The opening of an agent conversation. */
interface InitialPromptInput {
  systemPrompt: string;
  /** Tools listed in the system prompt, in this order. */
  tools: readonly ToolSpec[];
  userMessage: string;
  /** False disables the model's thinking block where the family supports it. Default true. */
  enableThinking?: boolean;
}

/**
 * A model family's chat format over token ids (token-in/token-out): the agent loop never
 * re-tokenizes text it has already sent. Adapters live outside the engine (Qwen3 in
 * `@raas/inference`: `createQwen3ChatFormat()`).
 */
export interface ChatFormat {
  /** Family name, e.g. `qwen3`. */
  readonly family: string;
  /** Token ids that end a response; passed to the backend as stop ids. */
  readonly stopTokenIds: readonly number[];
  /** Ids of the first prompt: system prompt with tool specs, user message, assistant header. */
  renderInitialPrompt(input: InitialPromptInput): number[];
  /** Splits a response into thinking, content, tool calls and malformed calls. */
  parseResponse(responseIds: readonly number[]): ParsedChatResponse;
  /**
   * Ids to append after `responseIds`: closes the response turn if the model did not (e.g. cut
   * at max tokens), renders the observations, and opens the next assistant turn.
   */
  renderObservations(input: {
    responseIds: readonly number[];
    observations: readonly ChatObservation[];
    enableThinking?: boolean;
  }): number[];
  /** Text of ids, special tokens kept (for display and recording). */
  decode(ids: readonly number[]): string;
}
