import { requestFailure } from "@raas/shared";
import { initTRPC } from "@trpc/server";
import { TRPC_ERROR_CODES_BY_KEY } from "@trpc/server/rpc";
import { roleSatisfies, type TRole } from "./auth/auth.types";
import type { ControlPlaneContext } from "./context";
import { httpStatusOf, TRPC_CODE_OF } from "./errors/http-status";
import { toRequestFailure } from "./errors/to-request-failure";
import { assertInputDepth } from "./input-depth";
import type { ProcedureMeta } from "./openapi/openapi-meta.types";

/** What every error looks like on the wire (tRPC envelope `error` and REST `error` alike). */
export interface ControlPlaneErrorData {
  /** RaaS request code, see `REQUEST_CODES` in `@raas/shared`. */
  code: string;
  httpStatus: number;
  path: string | undefined;
  details: Record<string, unknown> | undefined;
}

const t = initTRPC
  .context<ControlPlaneContext>()
  .meta<ProcedureMeta>()
  .create({
    isDev: false,
    sse: {
      ping: { enabled: true, intervalMs: 15_000 },
      client: { reconnectAfterInactivityMs: 30_000 },
    },
    errorFormatter({ shape, error, ctx }) {
      const { failure: mapped } = toRequestFailure(error, ctx?.storeHealth);
      const data: ControlPlaneErrorData = {
        code: mapped.code,
        httpStatus: httpStatusOf(mapped),
        path: shape.data.path,
        details: mapped.details,
      };
      return { message: mapped.message, code: TRPC_ERROR_CODES_BY_KEY[TRPC_CODE_OF[mapped.code]], data };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * One middleware per access level (each extra tRPC middleware costs per call): checks the role
 * first, then rejects pathological nesting before any schema or engine code walks the input. The
 * role is also the procedure's `meta.role`, which the REST routes and the OpenAPI document read.
 */
function procedureFor(needed: TRole | "public") {
  return t.procedure.meta({ role: needed }).use(async (opts) => {
    if (needed !== "public") requireRole(opts.ctx, needed);
    assertInputDepth(await opts.getRawInput());
    return opts.next();
  });
}

/** Throws `UNAUTHORIZED`/`FORBIDDEN` unless the request's principal may act as `needed`. */
export function requireRole(ctx: ControlPlaneContext, needed: TRole): void {
  const { principal } = ctx;
  if (principal.token === "invalid") {
    throw requestFailure(
      "UNAUTHORIZED",
      "the bearer token is not valid; send 'Authorization: Bearer <token>' with a configured token",
    );
  }
  if (needed !== "viewer" && !ctx.hasWriterToken) {
    throw requestFailure(
      "UNAUTHORIZED",
      "this server has no trainer or admin token configured, so it accepts no changes; configure one and send 'Authorization: Bearer <token>'",
    );
  }
  if (principal.role === null) {
    if (needed === "viewer" && !ctx.requireViewerToken) return;
    const accepted = { viewer: "viewer, trainer or admin", trainer: "trainer or admin", admin: "admin" }[
      needed
    ];
    throw requestFailure(
      "UNAUTHORIZED",
      `this request needs a ${accepted} token; send the header 'Authorization: Bearer <token>'`,
    );
  }
  if (!roleSatisfies(principal.role, needed)) {
    throw requestFailure(
      "FORBIDDEN",
      `the ${principal.role} token may not do this; it needs the ${needed} role or higher`,
    );
  }
}

/** Open to everyone, tokens ignored: health checks. */
export const publicProcedure = procedureFor("public");

/** Reads: open, or viewer token and up when `requireViewerToken` is set. */
export const viewerProcedure = procedureFor("viewer");

/** Mutations a trainer makes: submit, cancel. */
export const trainerProcedure = procedureFor("trainer");

/** Operator actions: pool sizes, backends. */
export const adminProcedure = procedureFor("admin");
