/** One chat message before templating. */
export interface ChatMessage {
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  /** Tool calls of an assistant message (rendered after its content). */
  toolCalls?: ToolCall[];
  /** Reasoning of an assistant message, where a template renders it (templates decide whether to keep it). */
  thinking?: string | null;
  /** The tool a `tool` message answers, for families that address results by name (harmony). */
  toolName?: string;
}

/** A tool offered to the model; `parameters` is a JSON schema. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** A tool call the model attempted but got wrong; `message` is written for the model to read. */
export interface ToolCallError {
  /** 1-based position of the call in the response. */
  index: number;
  /** The raw text between the tags (or after an unclosed tag). */
  raw: string;
  message: string;
}

/** A model response split into its parts. */
export interface ParsedResponse {
  /** Content of the thinking block; null when the response had none. */
  thinking: string | null;
  /** Visible text outside thinking and tool-call blocks, trimmed. */
  content: string;
  toolCalls: ToolCall[];
  toolCallErrors: ToolCallError[];
}

/** Text ↔ token ids for one model family, with the real vocabulary. */
export interface Tokenizer {
  /** Encodes text with no BOS/EOS added; special-token text maps to its special id. */
  encode(text: string): number[];
  /** Decodes ids, keeping special tokens as text. */
  decode(ids: readonly number[]): string;
  /**
   * The added tokens the tokenizer matches in raw text before anything else (no stripping, no
   * normalization), when it says; `createSegmentCachedTokenizer` splits at them.
   */
  readonly addedTokens?: readonly { text: string; id: number }[];
}

export interface PromptOptions {
  tools?: readonly ToolSpec[];
  /** False appends an empty thinking block to the generation prompt (Qwen3's `enable_thinking=false`). Default true. */
  enableThinking?: boolean;
}

/**
 * Chat template, tokenizer and tool-call format of one model family. New families implement this
 * interface; everything above it (conversation, drift check, simulator) stays the same.
 */
export interface ModelFamilyAdapter {
  readonly family: string;
  readonly tokenizer: Tokenizer;
  /** Token that ends an assistant turn (Qwen3: `<|im_end|>`). */
  readonly endOfTurnId: number;
  /**
   * Ids after which a response's turn is closed, so `renderContinuation` gets `hasEndOfTurn`
   * (harmony: `<|return|>`, `<|call|>` and `<|end|>`). Default: `[endOfTurnId]`.
   */
  readonly turnEndIds?: readonly number[];
  /** Ids that should stop generation. */
  readonly stopTokenIds: readonly number[];
  /** The first prompt: system (with tools), the first messages, and the assistant generation header. */
  renderPrompt(messages: readonly ChatMessage[], options?: PromptOptions): string;
  /**
   * The text that follows an assistant response: closes the response turn (unless it already ended
   * with the end-of-turn token), renders `messages`, and opens the next assistant turn.
   */
  renderContinuation(
    messages: readonly ChatMessage[],
    options: { hasEndOfTurn: boolean; enableThinking?: boolean },
  ): string;
  /**
   * The text of an assistant turn with thinking, content and tool calls (what the model would
   * emit). It may end with the token that ends the turn (harmony's `<|call|>`/`<|return|>`); when it
   * does not, a sampler appends `endOfTurnId`.
   */
  renderAssistant(parts: {
    thinking?: string | null;
    content?: string;
    toolCalls?: readonly ToolCall[];
  }): string;
  parseResponse(text: string, options?: { knownTools?: readonly string[] }): ParsedResponse;
  /** Model-facing feedback for malformed tool calls, sent back as the next tool/user message. */
  formatToolCallErrors(errors: readonly ToolCallError[]): string;
}
