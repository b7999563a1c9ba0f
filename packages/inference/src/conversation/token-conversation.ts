import type { ChatMessage, ModelFamilyAdapter, PromptOptions } from "../model/model-family.types";
import { isTurnClosed } from "../model/turn-end";

/** One model turn inside a conversation, as offsets into the conversation's ids. */
export interface ConversationTurn {
  promptIds: readonly number[];
  responseIds: readonly number[];
  logprobs: readonly number[];
}

/**
 * A conversation kept as exact token ids (token-in/token-out). The prompt of turn k+1 is turn k's
 * prompt + its response ids + the tokens of the newly templated messages; nothing already in the
 * conversation is ever re-tokenized, so the ids the trainer sees are the ids the model saw.
 */
export class TokenConversation {
  private readonly ids: number[];
  private readonly turnSpans: { promptLength: number; responseLength: number; logprobs: number[] }[] = [];
  private isAwaitingMessages = false;

  private constructor(
    readonly family: ModelFamilyAdapter,
    initialIds: number[],
    private readonly enableThinking: boolean,
  ) {
    this.ids = initialIds;
  }

  /** Templates and tokenizes the opening messages (system, tools, first user message). */
  static start(
    family: ModelFamilyAdapter,
    messages: readonly ChatMessage[],
    options: PromptOptions = {},
  ): TokenConversation {
    const ids = family.tokenizer.encode(family.renderPrompt(messages, options));
    return new TokenConversation(family, ids, options.enableThinking ?? true);
  }

  /** Continues from ids produced elsewhere (e.g. a stored trajectory); they are taken verbatim. */
  static fromIds(
    family: ModelFamilyAdapter,
    promptIds: readonly number[],
    enableThinking = true,
  ): TokenConversation {
    return new TokenConversation(family, [...promptIds], enableThinking);
  }

  /** The ids to send for the next generation. */
  get promptIds(): readonly number[] {
    return this.ids;
  }

  get tokenCount(): number {
    return this.ids.length;
  }

  get turns(): ConversationTurn[] {
    return this.turnSpans.map((span) => ({
      promptIds: this.ids.slice(0, span.promptLength),
      responseIds: this.ids.slice(span.promptLength, span.promptLength + span.responseLength),
      logprobs: span.logprobs,
    }));
  }

  /** Records the model's response ids verbatim. */
  appendResponse(responseIds: readonly number[], logprobs: readonly number[] = []): void {
    if (this.isAwaitingMessages) {
      throw new Error("appendResponse called twice without appendMessages in between");
    }
    this.turnSpans.push({
      promptLength: this.ids.length,
      responseLength: responseIds.length,
      logprobs: [...logprobs],
    });
    for (const id of responseIds) this.ids.push(id);
    this.isAwaitingMessages = true;
  }

  /**
   * Appends new messages (tool results, user feedback) after the last response: closes the
   * response turn when the model did not (e.g. stopped by max tokens), templates the messages and
   * opens the next assistant turn. Returns the newly added ids.
   */
  appendMessages(messages: readonly ChatMessage[]): number[] {
    if (!this.isAwaitingMessages) throw new Error("appendMessages needs a response to follow");
    const hasEndOfTurn = isTurnClosed(this.family, this.ids.at(-1));
    const text = this.family.renderContinuation(messages, {
      hasEndOfTurn,
      enableThinking: this.enableThinking,
    });
    const added = this.family.tokenizer.encode(text);
    for (const id of added) this.ids.push(id);
    this.isAwaitingMessages = false;
    return added;
  }

  /** Decoded text of the whole conversation, for display. */
  toText(): string {
    return this.family.tokenizer.decode(this.ids);
  }
}
