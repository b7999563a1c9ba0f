import { webEnv } from "../../../../../env";
import { forwardToServer } from "../../../../server/forward-to-server";
import { proxyErrorResponse } from "../../../../server/proxy-error";

export const dynamic = "force-dynamic";

/** Procedure paths (`jobs.list`, batched `a,b`); anything else never reaches the server. */
const PROCEDURE_PATH = /^[A-Za-z0-9_.,]{1,500}$/;

interface RouteContext {
  params: Promise<{ trpc: string[] }>;
}

/** Same-origin proxy to the control plane's tRPC API: no CORS, and the server URL stays server-side. */
async function handle(request: Request, context: RouteContext): Promise<Response> {
  const { trpc } = await context.params;
  const path = trpc.join("/");
  if (!PROCEDURE_PATH.test(path)) {
    return proxyErrorResponse(404, "NOT_FOUND", `no tRPC procedure '${path.slice(0, 100)}'`);
  }
  const env = webEnv();
  return forwardToServer(request, path, {
    serverUrl: env.RAAS_SERVER_URL,
    headersTimeoutMs: env.RAAS_PROXY_TIMEOUT_MS,
    maxBodyBytes: env.RAAS_MAX_BODY_BYTES,
  });
}

export { handle as GET, handle as POST };
