import type { SweJobGateway } from "@raas/handlers";
import type { TJob } from "@raas/shared";
import type { RaasClient } from "../client";

/** The SWE benchmark runner's view of the service: submit jobs in one batch, wait for them. */
export function sweJobGateway(client: RaasClient): SweJobGateway {
  return {
    submit: async (requests) =>
      (await client.jobs.submitMany.mutate({ jobs: [...requests] })).results.map((r) => ({
        id: r.job.id,
        created: r.created,
        status: r.job.status,
      })),
    wait: async (ids, timeoutMs) =>
      (await client.jobs.wait.query({ ids: [...ids], timeoutMs })).jobs as TJob[],
  };
}
