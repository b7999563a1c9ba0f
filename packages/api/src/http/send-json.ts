import type { ServerResponse } from "node:http";
import type { RaasError } from "@raas/shared";

/** Writes `body` as JSON with `status`; no-op when the response was already sent. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.writableEnded) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    ...headers,
  });
  res.end(text);
}

/** The REST error envelope: `{ error: { code, message, details? } }` with the code's HTTP status. */
export function sendRestError(
  res: ServerResponse,
  error: RaasError,
  headers: Record<string, string> = {},
): void {
  const body = {
    error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
  };
  sendJson(res, error.httpStatus, body, headers);
}
