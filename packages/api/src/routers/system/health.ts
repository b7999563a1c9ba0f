import { z } from "zod";
import type { ControlPlaneContext } from "../../context";
import { publicProcedure } from "../../trpc";
import { type TSandboxLimitsInForce, ZSandboxLimitsInForce } from "./sandbox-limits.schema";

export const ZHealthRequest = z.void();
export const ZHealthResponse = z
  .object({
    status: z.literal("ok").describe("Always `ok`: the server answers while its engine runs."),
    uptimeMs: z.number().describe("Time since the engine started, in ms."),
    handlerKinds: z.array(z.string()).describe("Handler kinds this server accepts in `jobs.submit`."),
    sandboxLimits: ZSandboxLimitsInForce.nullable().describe(
      "Limits of the agent sandboxes and what enforces each; null when the server has no sandbox runtime.",
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
  }));

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
