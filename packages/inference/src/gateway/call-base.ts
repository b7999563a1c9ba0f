import { firstStreamDifference, type GatewayCallBase } from "@raas/engine";

/** What a new call's base needs of the earlier call it continues or answers. */
export interface BaseCall {
  seq: number;
  promptIds: readonly number[];
  responseIds: readonly number[];
  /** The earlier call's request messages and tools as recorded. */
  messages: readonly unknown[];
  tools: readonly unknown[];
}

export interface SharedCall {
  base: GatewayCallBase;
  /** The request's messages, its first `base.messages` being the earlier call's own objects. */
  messages: unknown[];
  /** The earlier call's tools when they are the same, else the request's. */
  tools: unknown[];
}

/**
 * What a call repeats of `parent` (see `GatewayCallBase`): the prompt's ids that begin with the
 * parent's prompt + response ids, the leading messages equal to the parent's, the same tools. The
 * repeated messages are replaced by the parent's objects, so a session's calls share them in
 * memory as the store shares them on disk. Null when the call repeats nothing of the parent.
 */
export function shareWithParent(
  parent: BaseCall,
  call: { promptIds: readonly number[]; messages: readonly unknown[]; tools: readonly unknown[] },
): SharedCall | null {
  const promptTokens =
    firstStreamDifference(parent, call.promptIds) ?? parent.promptIds.length + parent.responseIds.length;
  let shared = 0;
  const limit = Math.min(call.messages.length, parent.messages.length);
  while (shared < limit && isSameJson(call.messages[shared], parent.messages[shared])) shared += 1;
  const isSameTools = isSameJson(call.tools, parent.tools);
  if (promptTokens === 0 && shared === 0 && !isSameTools) return null;
  return {
    base: { seq: parent.seq, promptTokens, messages: shared, isSameTools },
    messages: [...parent.messages.slice(0, shared), ...call.messages.slice(shared)],
    tools: isSameTools ? (parent.tools as unknown[]) : [...call.tools],
  };
}

/** Equal as JSON text would be: same values, same keys in the same order. */
export function isSameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i += 1) if (!isSameJson(a[i], other[i])) return false;
    return true;
  }
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  for (let i = 0; i < aKeys.length; i += 1) {
    const key = aKeys[i] as string;
    if (key !== bKeys[i]) return false;
    if (!isSameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}
