/**
 * Prompts stored as a delta against the previous turn. Turn k+1's prompt ids are turn k's prompt
 * ids + response ids + the newly templated ids, so storing each prompt whole grows with the
 * square of the turn count. A turn stores only the ids after the longest prefix it shares with
 * the previous turn's prompt + response, the prefix's length and a 32-bit FNV-1a hash of it.
 * Reading rebuilds the prefix from the previous turn and checks the hash: a prefix that no longer
 * matches (another attempt rewrote the previous turn, or it is missing) is left out, so the
 * trajectory export sees a token break instead of a wrong but plausible prompt.
 */

import { firstStreamDifference } from "@raas/engine";

/** Prefixes shorter than this are stored whole: the saving would not pay for the lookup. */
export const MIN_PREFIX_TOKENS = 16;

/** What the previous turn contributes: its prompt then its response ids. */
export interface PreviousTurnIds {
  promptIds: readonly number[];
  responseIds: readonly number[];
}

export interface StoredPrompt {
  /** The prompt ids after the prefix. */
  suffixIds: number[];
  /** Leading ids taken from the previous turn's prompt + response (0: none). */
  prefixTokens: number;
  /** FNV-1a of the prefix ids as a signed 32-bit integer; null when `prefixTokens` is 0. */
  prefixHash: number | null;
}

/**
 * FNV-1a over the first `count` ids of `ids` followed by `second`, one 32-bit id per step, as a
 * signed 32-bit integer (an `int4` column).
 */
export function hashTokenPrefix(
  ids: readonly number[],
  count: number,
  second: readonly number[] = [],
): number {
  let hash = 0x811c9dc5;
  const first = Math.min(count, ids.length);
  for (let i = 0; i < first; i += 1) hash = Math.imul(hash ^ (ids[i] as number), 0x01000193);
  for (let i = 0; i < count - first; i += 1) hash = Math.imul(hash ^ (second[i] as number), 0x01000193);
  return hash | 0;
}

/** Length of the common prefix of `prompt` and `previous.promptIds ++ previous.responseIds`. */
function commonPrefixLength(prompt: readonly number[], previous: PreviousTurnIds): number {
  return (
    firstStreamDifference(previous, prompt) ??
    Math.min(prompt.length, previous.promptIds.length + previous.responseIds.length)
  );
}

/** The first `count` ids of `previous.promptIds ++ previous.responseIds` (count ≤ their length). */
export function streamPrefix(previous: PreviousTurnIds, count: number): number[] {
  const { promptIds, responseIds } = previous;
  return count <= promptIds.length
    ? promptIds.slice(0, count)
    : [...promptIds, ...responseIds.slice(0, count - promptIds.length)];
}

/** Splits a prompt into the prefix it shares with the previous turn and the ids to store. */
export function splitPrompt(prompt: readonly number[], previous: PreviousTurnIds | undefined): StoredPrompt {
  const prefixTokens = previous ? commonPrefixLength(prompt, previous) : 0;
  if (prefixTokens < MIN_PREFIX_TOKENS) return { suffixIds: [...prompt], prefixTokens: 0, prefixHash: null };
  return {
    suffixIds: prompt.slice(prefixTokens),
    prefixTokens,
    prefixHash: hashTokenPrefix(prompt, prefixTokens),
  };
}

/**
 * The whole prompt of a stored turn, given the previous turn as read back (undefined when there
 * is none). A prefix the previous turn cannot supply, or whose hash differs, is dropped.
 */
export function joinPrompt(stored: StoredPrompt, previous: PreviousTurnIds | undefined): number[] {
  if (stored.prefixTokens === 0) return stored.suffixIds;
  if (!previous) return stored.suffixIds;
  const { promptIds, responseIds } = previous;
  if (promptIds.length + responseIds.length < stored.prefixTokens) return stored.suffixIds;
  if (hashTokenPrefix(promptIds, stored.prefixTokens, responseIds) !== stored.prefixHash)
    return stored.suffixIds;
  return streamPrefix(previous, stored.prefixTokens).concat(stored.suffixIds);
}
