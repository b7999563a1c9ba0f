import { failureOf, requestFailure, type TRequestCode } from "@raas/shared";

/** Errors whose message does not already carry the request's path get `jobs[i]` put in front. */
const NEEDS_INDEX = new Set<TRequestCode>(["UNKNOWN_HANDLER_KIND", "CONFLICT"]);

/** The error of request `index` of a batch, naming that index (`jobs[3].kind: unknown handler kind …`). */
function withBatchIndex(error: unknown, index: number): unknown {
  const failure = failureOf(error);
  if (failure?.kind !== "request" || !NEEDS_INDEX.has(failure.code)) return error;
  const field = failure.code === "CONFLICT" ? "jobKey" : "kind";
  return requestFailure(failure.code, `jobs[${index}].${field}: ${failure.message}`, {
    details: { ...failure.details, index },
    cause: error,
  });
}

/** Runs `fn`; in a batch, an error it throws names request `index`. */
export function atIndex<T>(fn: () => T, isBatch: boolean, index: number): T {
  try {
    return fn();
  } catch (error) {
    throw isBatch ? withBatchIndex(error, index) : error;
  }
}

/** `atIndex` for promises. */
export async function atIndexAsync<T>(fn: () => Promise<T>, isBatch: boolean, index: number): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw isBatch ? withBatchIndex(error, index) : error;
  }
}
