/** What the prefix checks read of a call. */
export interface TokenStreamCall {
  promptIds: readonly number[];
  responseIds: readonly number[];
}

/** Whether `ids` begins with every id of `prefix`. */
export function isPrefix(prefix: readonly number[], ids: readonly number[]): boolean {
  if (prefix.length > ids.length) return false;
  for (let i = 0; i < prefix.length; i += 1) if (prefix[i] !== ids[i]) return false;
  return true;
}

/**
 * First position where `ids` does not repeat `call.promptIds + call.responseIds` (where `ids` ends
 * early, its length); null when it repeats all of them.
 */
export function firstStreamDifference(call: TokenStreamCall, ids: readonly number[]): number | null {
  const { promptIds, responseIds } = call;
  const length = promptIds.length + responseIds.length;
  for (let i = 0; i < length; i += 1) {
    const expected = i < promptIds.length ? promptIds[i] : responseIds[i - promptIds.length];
    if (i >= ids.length || ids[i] !== expected) return i;
  }
  return null;
}

/** Whether `ids` continues the call's prompt + sampled response exactly. */
export function extendsStream(call: TokenStreamCall, ids: readonly number[]): boolean {
  return firstStreamDifference(call, ids) === null;
}
