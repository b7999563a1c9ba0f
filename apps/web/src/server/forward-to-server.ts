import { BodyTooLargeError, limitBody } from "./limit-body";
import { proxyErrorResponse } from "./proxy-error";

/** Request headers the control plane needs; everything else (cookies, host) stays here. */
const FORWARDED_REQUEST_HEADERS = ["authorization", "content-type", "accept", "last-event-id", "trpc-accept"];
/** Response headers passed back to the browser. */
const FORWARDED_RESPONSE_HEADERS = [
  "content-type",
  "cache-control",
  "www-authenticate",
  "allow",
  "retry-after",
];

export interface ForwardOptions {
  serverUrl: string;
  /** Longest wait for the server's response headers, in ms; the body (SSE) may stream longer. */
  headersTimeoutMs: number;
  /** Largest request body forwarded, in bytes (the server's limit); larger ones get 413. */
  maxBodyBytes: number;
}

/**
 * Forwards one tRPC call (query, mutation or SSE subscription) from `/api/trpc/<path>` to
 * `<serverUrl>/trpc/<path>`, streaming the request body (up to `maxBodyBytes`) and the response
 * body through unchanged.
 */
export async function forwardToServer(
  request: Request,
  path: string,
  options: ForwardOptions,
): Promise<Response> {
  const incoming = new URL(request.url);
  const target = new URL(`/trpc/${path}${incoming.search}`, options.serverUrl);
  const headers = new Headers();
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const hasBody = request.method !== "GET" && request.method !== "HEAD" && request.body !== null;
  const declaredLength = Number(request.headers.get("content-length") ?? 0);
  if (hasBody && declaredLength > options.maxBodyBytes) {
    // Answer before reading any of it: the body is dropped with the connection.
    return tooLargeResponse(options.maxBodyBytes);
  }
  const upstreamAbort = new AbortController();
  const onClientGone = () => upstreamAbort.abort();
  request.signal.addEventListener("abort", onClientGone, { once: true });
  const timer = setTimeout(() => upstreamAbort.abort(), options.headersTimeoutMs);
  let upstream: Response;
  try {
    upstream = await fetch(target, {
      method: request.method,
      headers,
      body: hasBody && request.body ? limitBody(request.body, options.maxBodyBytes) : null,
      // A streamed request body needs half duplex (undici); not yet in TypeScript's RequestInit.
      ...({ duplex: "half" } as object),
      signal: upstreamAbort.signal,
      cache: "no-store",
      redirect: "manual",
    });
  } catch (error) {
    request.signal.removeEventListener("abort", onClientGone);
    if (isBodyTooLarge(error)) return tooLargeResponse(options.maxBodyBytes);
    return proxyErrorResponse(
      502,
      "UNAVAILABLE",
      `cannot reach the RaaS server at ${options.serverUrl} — start it with \`npm start\`, or point RAAS_SERVER_URL at a running server`,
    );
  } finally {
    clearTimeout(timer);
  }
  const responseHeaders = new Headers();
  for (const name of FORWARDED_RESPONSE_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) responseHeaders.set(name, value);
  }
  if (responseHeaders.get("content-type")?.startsWith("text/event-stream")) {
    responseHeaders.set("cache-control", "no-cache, no-transform");
    responseHeaders.set("x-accel-buffering", "no");
  }
  return new Response(upstream.body, { status: upstream.status, headers: responseHeaders });
}

function isBodyTooLarge(error: unknown): boolean {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof BodyTooLargeError) return true;
  }
  return false;
}

function tooLargeResponse(maxBodyBytes: number): Response {
  return proxyErrorResponse(
    413,
    "PAYLOAD_TOO_LARGE",
    `the request body is larger than the limit of ${maxBodyBytes} bytes`,
  );
}
