import type { ServerResponse } from "node:http";
import type { RequestFailureData } from "@raas/shared";
import { httpStatusOf } from "../errors/http-status";

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
  failure: RequestFailureData,
  headers: Record<string, string> = {},
): void {
  const { code, message, details } = failure;
  const body = { error: { code, message, ...(details ? { details } : {}) } };
  sendJson(res, httpStatusOf(failure), body, headers);
}
