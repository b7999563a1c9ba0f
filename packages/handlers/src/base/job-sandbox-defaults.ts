import type { SandboxSpec } from "@raas/engine";
import { runImageOf } from "@raas/shared";
import type { JobSandboxDefaults } from "./agent-handler.types";
import type { TAgentTaskBase } from "./agent-payload.schema";

/** The job's own sandbox defaults: the payload's `image`, else its run's default image. */
export function jobSandboxDefaults(
  payload: Pick<TAgentTaskBase, "image">,
  job: { metadata: Readonly<Record<string, unknown>> | null },
): JobSandboxDefaults {
  const image = payload.image ?? runImageOf(job.metadata);
  return image === undefined ? {} : { image };
}

/** `spec` on the job's image when it names none itself (the task's own image wins). */
export function withJobImage<T extends Omit<SandboxSpec, "jobId">>(spec: T, defaults: JobSandboxDefaults): T {
  if (spec.image !== undefined || defaults.image === undefined) return spec;
  return { ...spec, image: defaults.image };
}
