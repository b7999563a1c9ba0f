import { adminProcedure } from "../../trpc";
import { requireWorkers, toWorkerView, unknownWorker } from "./require-workers";
import { ZWorkerIdRequest, ZWorkerResponse } from "./worker.schema";

const ZResumeWorkerRequest = ZWorkerIdRequest;
const ZResumeWorkerResponse = ZWorkerResponse;

/** A drained worker takes work again (from its next heartbeat). Admin only. */
export const resume = adminProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/workers/{id}/resume",
      operationId: "resumeWorker",
      summary: "Resume a drained worker: it takes work again (admin).",
      description:
        "Marks a draining worker `active` again; it notices at its next heartbeat. A stopped or lost worker is returned unchanged (a lost worker comes back by registering anew). 404 for an unknown id; 503 without a worker registry.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZResumeWorkerRequest)
  .output(ZResumeWorkerResponse)
  .mutation(async ({ ctx, input }) => {
    const worker = await requireWorkers(ctx).setDraining(input.id, false);
    if (!worker) throw unknownWorker(input.id);
    ctx.logger.info({ workerId: input.id, status: worker.status }, "worker resumed");
    return { worker: toWorkerView(worker, Date.now()) };
  });
