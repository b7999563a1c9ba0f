import type { TTurnSpan } from "@raas/shared";

/** AReaL's sentinel for a token no policy version generated (prompt, observation, template). */
const NOT_GENERATED = -1;

/** A weight version as the policy numbers it: `String(n)` of a non-negative safe integer. */
const DECIMAL_VERSION = /^(?:0|[1-9]\d*)$/;

/**
 * A stored weight version as an integer: the policy's weight version number, which the policy
 * control stamps on its backends as its decimal string. Null, free-form versions (a backend
 * registered with a checkpoint name) and numbers past 2^53 - 1 have none: -1.
 */
function versionNumber(weightVersion: string | null): number {
  if (weightVersion === null || !DECIMAL_VERSION.test(weightVersion)) return NOT_GENERATED;
  const version = Number(weightVersion);
  return Number.isSafeInteger(version) ? version : NOT_GENERATED;
}

/**
 * Aligned to a stream of `length` tokens: the integer weight version that sampled each token,
 * from the turns' `weightVersionSpans` (offsets into the stream), -1 everywhere else (pure).
 */
export function tokenVersions(length: number, turns: readonly TTurnSpan[]): number[] {
  const versions = new Array<number>(length).fill(NOT_GENERATED);
  for (const turn of turns) {
    for (const span of turn.weightVersionSpans) {
      versions.fill(versionNumber(span.weightVersion), span.start, span.end);
    }
  }
  return versions;
}
