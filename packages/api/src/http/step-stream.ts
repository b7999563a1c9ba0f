import type { IncomingMessage, ServerResponse } from "node:http";
import { requestFailure } from "@raas/shared";
import type { ControlPlaneContext } from "../context";
import { createCaller } from "../root";
import { drainedOrClosed } from "./batch-jsonl";

/** Path of a step's Server-Sent Events stream; `{stepId}` is one percent-encoded segment. */
export const STEP_STREAM_PATH = "/api/v1/steps/{stepId}/stream";

/** How long the stream waits for a group before it writes a heartbeat comment, in ms. */
const STEP_STREAM_HEARTBEAT_MS = 15_000;

/** Groups read per wait. */
const GROUPS_PER_READ = 32;

const PATH_PATTERN = /^\/api\/v1\/steps\/([^/]+)\/stream$/;

/** The encoded step id when `path` is a step's event stream, else null. */
export function matchStepStreamPath(path: string): string | null {
  return PATH_PATTERN.exec(path)?.[1] ?? null;
}

/**
 * Serves a step's handed-out groups as Server-Sent Events: one `event: group` per group (its
 * `id:` is the group's seq, so `Last-Event-ID` resumes after it), then `event: done` with the
 * final step, and the response ends. Heartbeat comments keep idle connections open. Reads go
 * through `steps.next` (same role, validation and 404): errors before the first byte are ordinary
 * REST errors; a failure later cuts the stream. `acquireSlot` counts the stream against the
 * server's subscriber caps (it throws 503 past them) and returns its release.
 */
export async function serveStepStream(options: {
  req: IncomingMessage;
  res: ServerResponse;
  encodedStepId: string;
  query: URLSearchParams;
  ctx: ControlPlaneContext;
  acquireSlot: () => () => void;
}): Promise<void> {
  const { req, res, query } = options;
  if (req.method !== "GET") {
    throw requestFailure("METHOD_NOT_ALLOWED", `${STEP_STREAM_PATH} only accepts GET`, {
      details: { allow: ["GET"] },
    });
  }
  const unknown = [...query.keys()].filter((key) => key !== "afterSeq");
  if (unknown.length > 0) {
    throw requestFailure(
      "VALIDATION_FAILED",
      `GET ${STEP_STREAM_PATH} takes only the query parameter afterSeq (got ${unknown.join(", ")})`,
    );
  }
  const stepId = decodeSegment(options.encodedStepId);
  let afterSeq = Math.max(
    parseSeq(query.get("afterSeq"), "afterSeq"),
    parseSeq(headerValue(req.headers["last-event-id"]), "the Last-Event-ID header"),
  );
  const abort = new AbortController();
  res.once("close", () => abort.abort());
  const caller = createCaller(options.ctx, { signal: abort.signal });
  // Checks role and step before anything is written, so those are plain JSON errors.
  let next = await caller.steps.next({ stepId, afterSeq, limit: GROUPS_PER_READ, timeoutMs: 0 });
  const release = options.acquireSlot();
  res.once("close", release);
  res.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store",
    connection: "keep-alive",
    "x-accel-buffering": "no",
  });
  res.write(": connected\n\n");
  const write = async (text: string) => {
    if (!res.write(text)) await drainedOrClosed(res);
  };
  for (;;) {
    for (const group of next.groups) {
      if (abort.signal.aborted) return;
      await write(`id: ${group.seq}\nevent: group\ndata: ${JSON.stringify(group)}\n\n`);
      afterSeq = group.seq;
    }
    if (abort.signal.aborted) return;
    if (next.done) {
      await write(`event: done\ndata: ${JSON.stringify(next.step)}\n\n`);
      break;
    }
    if (next.groups.length === 0) await write(": heartbeat\n\n");
    next = await caller.steps.next({
      stepId,
      afterSeq,
      limit: GROUPS_PER_READ,
      timeoutMs: STEP_STREAM_HEARTBEAT_MS,
    });
  }
  res.end();
}

function headerValue(value: string | string[] | undefined): string | null {
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

function parseSeq(raw: string | null, what: string): number {
  if (raw === null || raw.trim() === "") return 0;
  if (!/^\d{1,15}$/.test(raw.trim())) {
    throw requestFailure(
      "VALIDATION_FAILED",
      `${what}: expected the seq of the last group received (a whole number ≥ 0), got "${raw.slice(0, 40)}"`,
    );
  }
  return Number(raw.trim());
}

function decodeSegment(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw requestFailure(
      "BAD_REQUEST",
      `the path segment "${encoded.slice(0, 100)}" is not valid percent-encoding`,
    );
  }
}
