import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { requireWorkers, toWorkerView } from "./require-workers";
import { ZWorkerView } from "./worker.schema";

const ZListWorkersRequest = z
  .object({
    includeStopped: z
      .boolean({ error: "expected true or false" })
      .default(false)
      .describe("Also list workers that stopped cleanly. Default false."),
  })
  .strict()
  .default({ includeStopped: false })
  .meta({ description: "Which workers to list." });
const ZListWorkersResponse = z
  .object({
    workers: z
      .array(ZWorkerView)
      .describe("Registered workers (lost ones included), oldest registration first."),
  })
  .meta({ description: "The registered workers." });

/** The registered workers with status, labels, pool occupancy, sandboxes and heartbeat age. */
export const list = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/workers",
      operationId: "listWorkers",
      summary: "The registered workers with pool occupancy, sandboxes and heartbeat age.",
      description:
        "Every worker process (in the embedded default, the server itself) with its status (active, draining, stopped, lost), labels, stage pools with their occupancy and live sandboxes at its last heartbeat, and how old that heartbeat is. Stopped workers only with includeStopped. 503 without a worker registry.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZListWorkersRequest)
  .output(ZListWorkersResponse)
  .query(async ({ ctx, input }) => {
    const workers = await requireWorkers(ctx).list({ includeStopped: input.includeStopped });
    const now = Date.now();
    return { workers: workers.map((worker) => toWorkerView(worker, now)) };
  });
