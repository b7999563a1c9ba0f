import { StringDecoder } from "node:string_decoder";
import type { Http1ConnectionPool, Http1Lease, Http1Origin } from "./http1-connection-pool";
import { Http1ResponseParser } from "./http1-response-parser";
import { EventSplitter } from "./sse-events";

/** Where a request goes: its origin and the request line's target. */
export interface Http1Target {
  origin: Http1Origin;
  /** Path and query, e.g. `/v1/completions`. */
  path: string;
  /** The `Host` header's value. */
  hostHeader: string;
}

export interface EventStreamCall {
  target: Http1Target;
  /** The JSON body. */
  payload: string;
  /** Aborts the call: the connection is destroyed and the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Stops reading early: our end of the connection closes (the server sees the client leave) and
   * the answer is read on until the server ends it, or cut off after `interruptGraceMs`; events
   * that arrived meanwhile are still handed over.
   */
  interrupt?: AbortSignal;
  interruptGraceMs: number;
  /** Each event's `data` (not `[DONE]`); an error thrown here ends the call with that error. */
  onData(data: string): void;
}

/** A `text/event-stream` answer (its events went to `onData`), or any other answer as text. */
export type EventStreamAnswer =
  | { type: "stream" }
  | { type: "other"; status: number; contentType: string; text: string };

/** The connection ended or failed before the answer did: a connection failure, as node names it. */
const connectionCut = (message: string) => Object.assign(new Error(message), { code: "ECONNRESET" });

/**
 * POSTs `payload` over a pooled HTTP/1.1 connection and reads the answer as server-sent events, in
 * one write and a byte-level parser per connection (node's `http` client costs several times more
 * per request and per streamed chunk, which a gateway at thousands of chunks a second pays on every
 * call's critical path). A reused connection that the server had closed meanwhile (nothing came
 * back) is retried once on a new one.
 */
export async function postForEvents(
  pool: Http1ConnectionPool,
  call: EventStreamCall,
): Promise<EventStreamAnswer> {
  for (let attempt = 0; ; attempt += 1) {
    const outcome = await attemptOnce(pool, call);
    if (outcome.type !== "stale" || attempt >= 1) {
      if (outcome.type === "stale") throw outcome.error;
      return outcome.answer;
    }
  }
}

type Attempt = { type: "answer"; answer: EventStreamAnswer } | { type: "stale"; error: Error };

function attemptOnce(pool: Http1ConnectionPool, call: EventStreamCall): Promise<Attempt> {
  const { signal, interrupt, target } = call;
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (interrupt?.aborted) return Promise.resolve({ type: "answer", answer: { type: "stream" } });
  const acquired = pool.acquire(target.origin);
  if ("socket" in acquired) return exchange(pool, call, acquired);
  // Every connection of the origin is busy: wait for one, unless the caller leaves first.
  return new Promise<Attempt>((resolve, reject) => {
    const leave = (settle: () => void) => {
      acquired.cancel();
      signal?.removeEventListener("abort", onAbort);
      interrupt?.removeEventListener("abort", onInterrupt);
      settle();
    };
    const onAbort = () => leave(() => reject(signal?.reason));
    const onInterrupt = () => leave(() => resolve({ type: "answer", answer: { type: "stream" } }));
    signal?.addEventListener("abort", onAbort, { once: true });
    interrupt?.addEventListener("abort", onInterrupt, { once: true });
    acquired.promise.then(
      (lease) => {
        signal?.removeEventListener("abort", onAbort);
        interrupt?.removeEventListener("abort", onInterrupt);
        exchange(pool, call, lease).then(resolve, reject);
      },
      (error: unknown) => leave(() => reject(error)),
    );
  });
}

/** One request and its answer on `lease`'s connection. */
function exchange(pool: Http1ConnectionPool, call: EventStreamCall, lease: Http1Lease): Promise<Attempt> {
  const { signal, interrupt, target } = call;
  const { socket } = lease;
  // The caller left while the connection was on its way (granted to a waiter): nothing is sent.
  if (signal?.aborted || interrupt?.aborted) {
    pool.release(target.origin, socket, true);
    return signal?.aborted
      ? Promise.reject(signal.reason)
      : Promise.resolve({ type: "answer", answer: { type: "stream" } });
  }
  return new Promise<Attempt>((resolve, reject) => {
    let isSettled = false;
    let isInterrupted = false;
    let graceTimer: NodeJS.Timeout | undefined;
    let decoder: StringDecoder | null = null;
    let events: EventSplitter | null = null;
    let other: { status: number; contentType: string; chunks: Buffer[] } | null = null;
    const parser = new Http1ResponseParser({
      onHead: (head) => {
        const contentType = head.headers["content-type"] ?? "";
        if (head.status >= 200 && head.status < 300 && contentType.includes("event-stream")) {
          decoder = new StringDecoder("utf8");
          events = new EventSplitter(call.onData);
        } else other = { status: head.status, contentType, chunks: [] };
      },
      onBody: (bytes) => {
        if (events && decoder) events.push(decoder.write(bytes));
        else other?.chunks.push(Buffer.from(bytes));
      },
    });

    const detach = () => {
      socket.off("data", onBytes);
      socket.off("end", onEnd);
      socket.off("error", onError);
      socket.off("close", onClose);
      signal?.removeEventListener("abort", onAbort);
      interrupt?.removeEventListener("abort", onInterrupt);
      clearTimeout(graceTimer);
    };
    const finish = () => {
      if (isSettled) return;
      isSettled = true;
      detach();
      if (events && decoder) events.push(decoder.end());
      pool.release(target.origin, socket, parser.isReusable && !isInterrupted);
      const answer: EventStreamAnswer = other
        ? {
            type: "other",
            status: other.status,
            contentType: other.contentType,
            text: Buffer.concat(other.chunks).toString("utf8"),
          }
        : { type: "stream" };
      resolve({ type: "answer", answer });
    };
    const fail = (error: unknown) => {
      if (isSettled) return;
      isSettled = true;
      detach();
      socket.destroy();
      // A kept-alive connection the server had closed: nothing of this request was answered.
      const isStale = lease.isReused && parser.receivedBytes === 0 && !isInterrupted && !signal?.aborted;
      if (isStale && error instanceof Error) resolve({ type: "stale", error });
      else reject(error);
    };
    const onBytes = (bytes: Buffer) => {
      try {
        parser.push(bytes);
      } catch (error) {
        fail(error);
        return;
      }
      if (parser.isComplete) finish();
    };
    const onEnd = () => {
      parser.end();
      if (parser.isComplete) finish();
      else fail(connectionCut("the server closed the connection before its answer ended"));
    };
    const onError = (error: Error) => fail(error);
    const onClose = () => fail(connectionCut("the connection closed before the answer ended"));
    const onAbort = () => fail(signal?.reason);
    const onInterrupt = () => {
      isInterrupted = true;
      socket.end();
      graceTimer = setTimeout(() => socket.destroy(), call.interruptGraceMs);
      graceTimer.unref();
    };

    socket.on("data", onBytes);
    socket.on("end", onEnd);
    socket.on("error", onError);
    socket.on("close", onClose);
    signal?.addEventListener("abort", onAbort, { once: true });
    interrupt?.addEventListener("abort", onInterrupt, { once: true });
    socket.write(requestHead(target, call.payload) + call.payload);
  });
}

function requestHead(target: Http1Target, payload: string): string {
  return (
    `POST ${target.path} HTTP/1.1\r\nHost: ${target.hostHeader}\r\n` +
    `Content-Type: application/json\r\nAccept: text/event-stream\r\n` +
    `Content-Length: ${Buffer.byteLength(payload)}\r\n\r\n`
  );
}
