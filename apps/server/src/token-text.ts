import type { TokenTextDecoder } from "@raas/api";
import { loadQwen3Tokenizer } from "@raas/inference";

/**
 * Qwen3's real vocabulary for `tokens.decode` (the dashboard's token view), loaded on the first
 * call (≈ 0.35 s, then kept): a server nobody reads token text from never pays for it.
 */
export function qwen3TokenText(): TokenTextDecoder {
  return { family: "qwen3", decode: (ids) => loadQwen3Tokenizer().decode(ids) };
}
