import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { ZBackendView } from "./backend.schema";
import { requireBackends } from "./require-backends";

export const ZListBackendsRequest = z.void();
export const ZListBackendsResponse = z.object({
  /** Every registered backend with in-flight load, health and statistics, in registration order. */
  backends: z.array(ZBackendView),
});

/** The registered inference backends with their load, health and prefix-cache statistics. */
export const list = viewerProcedure
  .input(ZListBackendsRequest)
  .output(ZListBackendsResponse)
  .query(({ ctx }) => ({ backends: requireBackends(ctx).registry.listBackends() }));
