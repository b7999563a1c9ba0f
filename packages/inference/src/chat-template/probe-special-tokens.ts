import type { TokenizerConfig } from "./tokenizer-config";

/** The special tokens a tokenizer config names, and which of them the chat template emits. */
export interface ProbedSpecialTokens {
  bos?: string;
  eos?: string;
  pad?: string;
  /** Special tokens (from the config's bos/eos/pad/unk, `additional_special_tokens` and
   * `added_tokens_decoder`) that appear in at least one probe render, in order of first appearance. */
  emitted: string[];
}

function tokenText(token: unknown): string | undefined {
  if (typeof token === "string") return token;
  if (typeof token === "object" && token !== null && "content" in token) {
    const { content } = token as { content: unknown };
    return typeof content === "string" ? content : undefined;
  }
  return undefined;
}

function declaredSpecialTokens(config: TokenizerConfig): Set<string> {
  const tokens = new Set<string>();
  const add = (token: unknown) => {
    const text = tokenText(token);
    if (text) tokens.add(text);
  };
  for (const key of ["bos_token", "eos_token", "pad_token", "unk_token"]) add(config[key]);
  if (Array.isArray(config.additional_special_tokens)) {
    for (const token of config.additional_special_tokens) add(token);
  }
  const decoder = config.added_tokens_decoder;
  if (typeof decoder === "object" && decoder !== null) {
    for (const entry of Object.values(decoder)) {
      if ((entry as { special?: unknown }).special === true) add(entry);
    }
  }
  return tokens;
}

/** The config's special tokens, with those found in `renders` listed in order of first appearance. */
export function probeSpecialTokens(config: TokenizerConfig, renders: readonly string[]): ProbedSpecialTokens {
  const text = renders.join("\n");
  const emitted = [...declaredSpecialTokens(config)]
    .map((token) => ({ token, at: text.indexOf(token) }))
    .filter(({ at }) => at !== -1)
    .sort((a, b) => a.at - b.at || b.token.length - a.token.length)
    .map(({ token }) => token);
  return {
    ...(tokenText(config.bos_token) && { bos: tokenText(config.bos_token) }),
    ...(tokenText(config.eos_token) && { eos: tokenText(config.eos_token) }),
    ...(tokenText(config.pad_token) && { pad: tokenText(config.pad_token) }),
    emitted,
  };
}
