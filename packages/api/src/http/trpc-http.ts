import type { ServerResponse } from "node:http";
import type { RequestFailureData } from "@raas/shared";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import { httpStatusOf, TRPC_CODE_OF } from "../errors/http-status";
import { appRouter } from "../root";
import type { ControlPlaneErrorData } from "../trpc";
import { sendJson } from "./send-json";

/** Writes an error in tRPC's envelope, for failures detected before tRPC sees the request. */
export function sendTrpcError(
  res: ServerResponse,
  failure: RequestFailureData,
  headers: Record<string, string> = {},
): void {
  const httpStatus = httpStatusOf(failure);
  const data: ControlPlaneErrorData = {
    code: failure.code,
    httpStatus,
    path: undefined,
    details: failure.details,
  };
  const code = TRPC_ERROR_CODES_BY_KEY[TRPC_CODE_OF[failure.code]];
  sendJson(res, httpStatus, { error: { message: failure.message, code, data } }, headers);
}

const procedurePaths = new Set(Object.keys(appRouter._def.procedures));

/** A low-cardinality metrics label for a tRPC path: the procedure name, `batch`, or `unknown`. */
export function trpcRouteLabel(path: string): string {
  const procedure = path.slice("/trpc/".length);
  if (procedure.includes(",")) return "/trpc/{batch}";
  return procedurePaths.has(procedure) ? `/trpc/${procedure}` : "/trpc/{unknown}";
}

/** True for a tRPC subscription procedure (its `_def.type`; the record's type also admits routers). */
function isSubscriptionProcedure(value: unknown): boolean {
  if ((typeof value !== "function" && typeof value !== "object") || value === null) return false;
  if (!("_def" in value) || typeof value._def !== "object" || value._def === null) return false;
  return "type" in value._def && value._def.type === "subscription";
}

/** Paths of subscription procedures: their access is checked before the SSE response starts. */
export const SUBSCRIPTION_PATHS = new Set(
  Object.entries(appRouter._def.procedures)
    .filter(([, procedure]) => isSubscriptionProcedure(procedure))
    .map(([path]) => `/trpc/${path}`),
);

/** The `token` of tRPC's `connectionParams` query parameter (EventSource cannot send headers). */
export function connectionParamsToken(query: URLSearchParams): string | null {
  const raw = query.get("connectionParams");
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    const token =
      typeof parsed === "object" && parsed !== null ? (parsed as { token?: unknown }).token : undefined;
    return typeof token === "string" ? token : null;
  } catch {
    return null;
  }
}
