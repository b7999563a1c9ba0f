import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { ZBackendView } from "./backend.schema";
import { requireBackends } from "./require-backends";

const ZListBackendsRequest = z.void();
const ZListBackendsResponse = z
  .object({
    backends: z
      .array(ZBackendView)
      .describe(
        "Every registered backend with in-flight load, health and statistics, in registration order.",
      ),
  })
  .meta({ description: "The registered backends." });

/** The registered inference backends with their load, health and prefix-cache statistics. */
export const list = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/backends",
      operationId: "listBackends",
      summary: "The registered inference backends with in-flight load, health and prefix-cache statistics.",
      description:
        "Every registered backend in registration order, with its lifecycle, circuit state, in-flight requests, sticky jobs and request/token/cache statistics. In distributed mode the figures are the whole deployment's: this server's own merged with every live worker's last heartbeat (counters and load summed, the circuit open where any worker's is), each worker's own under `workers`. 503 without an inference pool.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZListBackendsRequest)
  .output(ZListBackendsResponse)
  .query(async ({ ctx }) => ({
    backends: (await requireBackends(ctx).registry.listBackends()).map((backend) => ({
      ...backend,
      workers: backend.workers ?? [],
    })),
  }));
