/**
 * Token ids → text with a model family's real vocabulary, for people reading trajectories (the
 * dashboard's token view). The composition root supplies it; the API never loads a tokenizer.
 */
export interface TokenTextDecoder {
  /** The model family whose vocabulary it decodes (`qwen3`). */
  readonly family: string;
  /** Decodes ids as one text, special tokens kept as their text (`<|im_start|>`). */
  decode(ids: readonly number[]): string;
}
