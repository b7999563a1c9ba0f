import { adminProcedure } from "../../trpc";
import { requireWorkers, toWorkerView, unknownWorker } from "./require-workers";
import { ZWorkerIdRequest, ZWorkerResponse } from "./worker.schema";

const ZDrainWorkerRequest = ZWorkerIdRequest;
const ZDrainWorkerResponse = ZWorkerResponse;

/** The worker finishes its jobs and takes no new ones (it sees this at its next heartbeat). Admin only. */
export const drain = adminProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/workers/{id}/drain",
      operationId: "drainWorker",
      summary: "Drain a worker: it finishes its jobs and takes no new ones (admin).",
      description:
        "Marks the worker `draining`; it notices at its next heartbeat (every few seconds), finishes the jobs it holds and takes none. Undo with resume. A stopped or lost worker is returned unchanged. 404 for an unknown id; 503 without a worker registry.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZDrainWorkerRequest)
  .output(ZDrainWorkerResponse)
  .mutation(async ({ ctx, input }) => {
    const worker = await requireWorkers(ctx).setDraining(input.id, true);
    if (!worker) throw unknownWorker(input.id);
    ctx.logger.info({ workerId: input.id, status: worker.status }, "worker draining");
    return { worker: toWorkerView(worker, Date.now()) };
  });
