import { z } from "zod";
import type { ControlPlaneContext } from "../../context";
import { publicProcedure } from "../../trpc";
import { type TSandboxLimitsInForce, ZSandboxLimitsInForce } from "./sandbox-limits.schema";

const ZHealthRequest = z.void();
const ZStoreHealthView = z
  .object({
    available: z.boolean().describe("False while this server cannot reach its database (an outage)."),
    reason: z.string().nullable().describe("Why it is unavailable, for operators; null while available."),
    sinceMs: z.number().describe("When `available` last changed, ms since the Unix epoch."),
    outages: z.number().int().describe("Outages seen since the server started."),
    unavailableMs: z
      .number()
      .describe(
        "Time the database was unreachable since the server started, the current outage included, in ms.",
      ),
  })
  .meta({
    id: "StoreHealth",
    description:
      "This server's view of its database. During an outage writes are held and retried and no worker is marked lost.",
  });
const ZHealthResponse = z
  .object({
    status: z.literal("ok").describe("Always `ok`: the server answers while its engine runs."),
    uptimeMs: z.number().describe("Time since the engine started, in ms."),
    handlerKinds: z.array(z.string()).describe("Handler kinds this server accepts in `jobs.submit`."),
    sandboxLimits: ZSandboxLimitsInForce.nullable().describe(
      "Limits of the agent sandboxes and what enforces each; null when the server has no sandbox runtime.",
    ),
    store: ZStoreHealthView.nullable().describe(
      "Whether the server reaches its database; null when it does not track it (the in-memory store).",
    ),
  })
  .meta({ description: "Liveness, accepted handler kinds and sandbox limits." });

/** Liveness: answers while the engine runs. Needs no token. */
export const health = publicProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/health",
      operationId: "getHealth",
      summary: "Liveness, the accepted handler kinds and the sandbox limits in force. Needs no token.",
      description:
        "Answers 200 while the engine runs. Lists the handler kinds `POST /api/v1/jobs` accepts and which sandbox limits are enforced and by what. Open to everyone; tokens are ignored.",
    },
  })
  .input(ZHealthRequest)
  .output(ZHealthResponse)
  .query(({ ctx }) => ({
    status: "ok" as const,
    uptimeMs: ctx.engine.stats().uptimeMs,
    handlerKinds: ctx.engine.handlerKinds(),
    sandboxLimits: sandboxLimitsOf(ctx),
    store: storeOf(ctx),
  }));

function storeOf(ctx: ControlPlaneContext) {
  if (!ctx.storeHealth) return null;
  const { available, reason, sinceMs, outages, unavailableMs } = ctx.storeHealth.state();
  return { available, reason, sinceMs, outages, unavailableMs };
}

/** Health must answer even when the runtime cannot say: a failing report is logged and left out. */
function sandboxLimitsOf(ctx: ControlPlaneContext): TSandboxLimitsInForce | null {
  if (!ctx.sandboxes?.limitsInForce) return null;
  try {
    const parsed = ZSandboxLimitsInForce.safeParse(ctx.sandboxes.limitsInForce());
    if (parsed.success) return parsed.data;
    ctx.logger.warn(
      { issues: parsed.error.issues },
      "the sandbox runtime reported limits in an unexpected shape",
    );
  } catch (error) {
    ctx.logger.warn({ err: error }, "the sandbox runtime could not report its limits");
  }
  return null;
}
