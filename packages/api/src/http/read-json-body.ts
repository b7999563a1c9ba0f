import { isUtf8 } from "node:buffer";
import type { IncomingMessage } from "node:http";
import { type FailureError, type RequestFailureData, requestFailure } from "@raas/shared";

/** After rejecting an oversized body, keep discarding this much more so the 413 reaches the client. */
const DISCARD_AFTER_LIMIT_BYTES = 8 * 1024 * 1024;

/** True for `application/json` and `application/*+json`, with any parameters. */
function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const type = header.split(";", 1)[0]!.trim().toLowerCase();
  return type === "application/json" || (type.startsWith("application/") && type.endsWith("+json"));
}

/** `PAYLOAD_TOO_LARGE` when the declared `Content-Length` is over the limit (nothing read yet). */
export function declaredLengthError(
  req: IncomingMessage,
  maxBodyBytes: number,
): FailureError<RequestFailureData> | null {
  const declared = req.headers["content-length"];
  return declared !== undefined && Number(declared) > maxBodyBytes ? tooLarge(maxBodyBytes) : null;
}

/**
 * Reads a request body of at most `maxBodyBytes` as JSON. Returns `undefined` for an empty body.
 * Throws `PAYLOAD_TOO_LARGE`, `UNSUPPORTED_MEDIA_TYPE` (a body that is not declared JSON) or
 * `BAD_REQUEST` (invalid UTF-8 or JSON), each with a readable message.
 */
export async function readJsonBody(req: IncomingMessage, maxBodyBytes: number): Promise<unknown> {
  const declared = declaredLengthError(req, maxBodyBytes);
  if (declared) {
    discardRest(req);
    throw declared;
  }
  const raw = await readRaw(req, maxBodyBytes);
  if (raw.length === 0) return undefined;
  if (!isJsonContentType(req.headers["content-type"])) {
    const got = req.headers["content-type"] ? `'${req.headers["content-type"]}'` : "no content type";
    throw requestFailure(
      "UNSUPPORTED_MEDIA_TYPE",
      `the body must be JSON: send 'Content-Type: application/json' (got ${got})`,
    );
  }
  const text = decodeUtf8(raw);
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw requestFailure("BAD_REQUEST", `the request body is not valid JSON: ${reason}`);
  }
}

/** The body as text; `BAD_REQUEST` when it is not valid UTF-8. */
export function decodeUtf8(raw: Buffer): string {
  if (!isUtf8(raw)) throw requestFailure("BAD_REQUEST", "the request body is not valid UTF-8");
  return raw.toString("utf8");
}

/** Reads the whole body, rejecting with `PAYLOAD_TOO_LARGE` past `maxBodyBytes`. */
export function readRaw(req: IncomingMessage, maxBodyBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) {
        chunks.push(chunk);
        return;
      }
      cleanup();
      discardRest(req);
      reject(tooLarge(maxBodyBytes));
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(requestFailure("BAD_REQUEST", `the request body could not be read: ${error.message}`));
    };
    const onAborted = () => onError(new Error("the client aborted the request"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onAborted);
  });
}

/**
 * Keeps reading (and dropping) what the client still sends, so it sees our error response
 * instead of a reset connection; gives up and closes the socket past a cap.
 */
export function discardRest(req: IncomingMessage): void {
  let discarded = 0;
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > DISCARD_AFTER_LIMIT_BYTES) req.socket.destroy();
  });
  req.on("error", () => {});
  req.resume();
}

function tooLarge(maxBodyBytes: number) {
  return requestFailure(
    "PAYLOAD_TOO_LARGE",
    `the request body is larger than the limit of ${maxBodyBytes} bytes`,
    {
      details: { maxBodyBytes },
    },
  );
}
