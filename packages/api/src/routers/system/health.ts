import { z } from "zod";
import type { ControlPlaneContext } from "../../context";
import { publicProcedure } from "../../trpc";
import { type TSandboxLimitsInForce, ZSandboxLimitsInForce } from "./sandbox-limits.schema";

export const ZHealthRequest = z.void();
export const ZHealthResponse = z.object({
  status: z.literal("ok"),
  uptimeMs: z.number(),
  /** Handler kinds this server accepts in `jobs.submit`. */
  handlerKinds: z.array(z.string()),
  /** Limits of the agent sandboxes and what enforces each; null when the server has no sandbox runtime. */
  sandboxLimits: ZSandboxLimitsInForce.nullable(),
});

/** Liveness: answers while the engine runs. Needs no token. */
export const health = publicProcedure
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
