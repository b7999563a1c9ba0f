import { type RequestFailureData, requestFailure } from "@raas/shared";
import type { ControlPlaneStoreHealth } from "../store-health.port";

/** What a caller reads when a request failed because the store could not be reached. */
export const STORE_UNAVAILABLE_MESSAGE = "the store is unavailable (PostgreSQL unreachable); retry shortly";

/**
 * The `retry-after` of that answer, in seconds. An outage is noticed by the store's probe within
 * a second of its end; a short wait lets callers come back soon without hammering it.
 */
const STORE_RETRY_AFTER_SEC = 2;

/**
 * True when `thrown` failed a request because the store is unreachable: the store's own
 * classifier calls it a connection failure (the database adapter's `isDatabaseUnavailableError`)
 * *and* the process's store health is in an outage. The second condition keeps a stray network
 * error from elsewhere (an inference backend refusing a connection) outside an outage a logged
 * 500 rather than a misleading "store unavailable". The pool reports a lost or refused
 * connection before the failed query returns, so a request that meets an outage sees it.
 */
export function isStoreUnavailable(
  thrown: unknown,
  storeHealth: ControlPlaneStoreHealth | null | undefined,
): boolean {
  return !!storeHealth && !storeHealth.isAvailable && storeHealth.isConnectionError(thrown);
}

/** The 503 a request gets during a store outage, with `details.retryAfterSec` for `retry-after`. */
export function storeUnavailableFailure(): RequestFailureData {
  return requestFailure("UNAVAILABLE", STORE_UNAVAILABLE_MESSAGE, {
    details: { retryAfterSec: STORE_RETRY_AFTER_SEC },
  }).failure;
}
