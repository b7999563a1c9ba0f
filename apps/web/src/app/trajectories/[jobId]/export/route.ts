import { webEnv } from "../../../../../env";

export const dynamic = "force-dynamic";

interface RouteContext {
  params: Promise<{ jobId: string }>;
}

/** Job ids are short printable tokens; anything else is refused before it reaches the server. */
const JOB_ID = /^[A-Za-z0-9_-]{1,200}$/;

/**
 * One trajectory's training export as a JSONL download: the server's
 * `GET /api/v1/jobs/{jobId}/export` row on one line, through the dashboard (same origin, the
 * server URL stays server-side). The caller's `Authorization` header, if any, is passed on.
 */
export async function GET(request: Request, context: RouteContext): Promise<Response> {
  const { jobId } = await context.params;
  if (!JOB_ID.test(jobId)) return textResponse(400, `'${jobId.slice(0, 100)}' is not a job id`);
  const env = webEnv();
  const target = new URL(`/api/v1/jobs/${encodeURIComponent(jobId)}/export`, env.RAAS_SERVER_URL);
  const headers = new Headers({ accept: "application/json" });
  const authorization = request.headers.get("authorization");
  if (authorization !== null) headers.set("authorization", authorization);
  let upstream: Response;
  try {
    upstream = await fetch(target, { headers, signal: AbortSignal.timeout(env.RAAS_PROXY_TIMEOUT_MS) });
  } catch {
    return textResponse(502, `the RaaS server at ${target.origin} did not answer; is it running?`);
  }
  const body = await upstream.text();
  if (!upstream.ok)
    return textResponse(upstream.status, errorMessage(body) ?? `the server answered ${upstream.status}`);
  let row: unknown;
  try {
    row = JSON.parse(body);
  } catch {
    return textResponse(502, "the server's export was not JSON");
  }
  return new Response(`${JSON.stringify(row)}\n`, {
    status: 200,
    headers: {
      "content-type": "application/x-ndjson; charset=utf-8",
      "content-disposition": `attachment; filename="${jobId}.jsonl"`,
      "cache-control": "no-store",
    },
  });
}

function textResponse(status: number, message: string): Response {
  return new Response(`${message}\n`, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}

/** The message of the server's JSON error body, whatever its shape (`{ message }` or `{ error: { message } }`). */
function errorMessage(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: { message?: unknown } };
    const message = parsed.message ?? parsed.error?.message;
    return typeof message === "string" ? message : null;
  } catch {
    return null;
  }
}
