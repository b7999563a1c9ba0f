import type { IncomingMessage, ServerResponse } from "node:http";
import { formatIssues } from "@raas/shared";
import { ZodError } from "zod";

const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** A failure answered with its status and message. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res
    .writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
    .end(text);
}

/** The request body as JSON: 413 past 64 MiB, 400 when it does not parse. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, "request body too large");
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    throw new HttpError(400, "request body is not valid JSON");
  }
}

/** Answers a failed request, unless an answer has started: 400 for a bad body, the `HttpError`'s status, else 500. */
export function answerError(res: ServerResponse, error: unknown): void {
  if (res.headersSent || res.destroyed) return;
  if (error instanceof ZodError) {
    const detail = formatIssues(error.issues, { root: "body" });
    sendJson(res, 400, { error: { message: `invalid request: ${detail}`, type: "BadRequestError" } });
  } else if (error instanceof HttpError) {
    sendJson(res, error.status, { error: { message: error.message } });
  } else if (!res.destroyed) {
    sendJson(res, 500, { error: { message: error instanceof Error ? error.message : String(error) } });
  }
}
