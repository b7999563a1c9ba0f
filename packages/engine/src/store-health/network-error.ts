/** Node's error codes for a peer that cannot be reached or dropped the connection. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * True when `error` (or an error in its `cause` chain) carries a network error code: the peer
 * could not be reached or the connection broke. Driver-specific failures (a server shutting
 * down, a closed client) are for the adapter's own classifier.
 */
export function isNetworkError(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 8; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
