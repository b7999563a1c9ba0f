import { z } from "zod";
import { publicProcedure } from "../../trpc";

export const ZHealthRequest = z.void();
export const ZHealthResponse = z.object({
  status: z.literal("ok"),
  uptimeMs: z.number(),
  /** Handler kinds this server accepts in `jobs.submit`. */
  handlerKinds: z.array(z.string()),
});

/** Liveness: answers while the engine runs. Needs no token. */
export const health = publicProcedure
  .input(ZHealthRequest)
  .output(ZHealthResponse)
  .query(({ ctx }) => ({
    status: "ok" as const,
    uptimeMs: ctx.engine.stats().uptimeMs,
    handlerKinds: ctx.engine.handlerKinds(),
  }));
