import type { IncomingMessage, ServerResponse } from "node:http";
import { requestFailure } from "@raas/shared";
import type { ControlPlaneContext } from "../context";
import { createCaller } from "../root";

/** Path of the JSON Lines export of a batch; `{batchId}` is one percent-encoded segment. */
export const BATCH_JSONL_PATH = "/api/v1/batches/{batchId}/trajectories.jsonl";

/** Jobs read from the store per page while streaming: one page's turns are in memory at a time. */
const BATCH_JSONL_PAGE_SIZE = 8;

const PATH_PATTERN = /^\/api\/v1\/batches\/([^/]+)\/trajectories\.jsonl$/;

/** The encoded batch id when `path` is the JSONL export of a batch, else null. */
export function matchBatchJsonlPath(path: string): string | null {
  return PATH_PATTERN.exec(path)?.[1] ?? null;
}

/**
 * Streams every job of a batch as JSON Lines (`application/x-ndjson`), one `jobs.export` row per
 * line, reading the store page by page through `jobs.exportBatch` (same role, validation and
 * 404). Errors before the first byte are ordinary REST errors; a failure later cuts the stream
 * (the connection is destroyed), so a truncated body never ends cleanly. Writes wait for the
 * client to drain, and the stream stops when the client goes away.
 */
export async function serveBatchJsonl(options: {
  req: IncomingMessage;
  res: ServerResponse;
  encodedBatchId: string;
  query: URLSearchParams;
  ctx: ControlPlaneContext;
}): Promise<void> {
  const { req, res } = options;
  if (req.method !== "GET") {
    throw requestFailure("METHOD_NOT_ALLOWED", `${BATCH_JSONL_PATH} only accepts GET`, {
      details: { allow: ["GET"] },
    });
  }
  if ([...options.query.keys()].length > 0) {
    throw requestFailure("VALIDATION_FAILED", `GET ${BATCH_JSONL_PATH} takes no query parameters`);
  }
  const batchId = decodeBatchId(options.encodedBatchId);
  const abort = new AbortController();
  res.once("close", () => abort.abort());
  const caller = createCaller(options.ctx, { signal: abort.signal });
  let page = await caller.jobs.exportBatch({ batchId, limit: BATCH_JSONL_PAGE_SIZE });
  res.writeHead(200, {
    "content-type": "application/x-ndjson; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  for (;;) {
    for (const row of page.items) {
      if (abort.signal.aborted) return;
      if (!res.write(`${JSON.stringify(row)}\n`)) {
        await drainedOrClosed(res);
      }
    }
    if (page.nextCursor === null || abort.signal.aborted) break;
    page = await caller.jobs.exportBatch({ batchId, cursor: page.nextCursor, limit: BATCH_JSONL_PAGE_SIZE });
  }
  res.end();
}

/** Resolves when the client has taken the buffered bytes, or went away. */
export function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

function decodeBatchId(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw requestFailure(
      "BAD_REQUEST",
      `the path segment "${encoded.slice(0, 100)}" is not valid percent-encoding`,
    );
  }
}
