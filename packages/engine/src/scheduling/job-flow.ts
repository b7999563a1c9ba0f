import type { JobRecord } from "../ports/job-record.types";
import type { FlowShare } from "./fair-queue";

/** The flow of jobs that belong to no training run. */
const NO_RUN_FLOW = "";

/** What the fair scheduler reads from a job: its flow (training run) and that flow's share. */
export interface JobFlow extends FlowShare {
  flowId: string;
}

/**
 * The metadata a run's member jobs carry for the scheduler (added only when the run's share is not
 * the default one, so plain runs' jobs keep their metadata as it was).
 */
export function runShareMetadata(run: {
  share: number;
  maxSandboxes: number | null;
}): Record<string, unknown> {
  if (run.share === 1 && run.maxSandboxes === null) return {};
  return { share: { weight: run.share, maxSandboxes: run.maxSandboxes } };
}

/**
 * A job's flow: `metadata.runId` (the batch system stamps it on every member) with the weight and
 * sandbox cap of `metadata.share`; the job's priority is the tier. Jobs of no run share one flow
 * of weight 1. Metadata is the caller's: anything malformed falls back to the defaults.
 */
export function jobFlowOf(record: Pick<JobRecord, "metadata" | "priority">): JobFlow {
  const metadata = record.metadata ?? {};
  const runId = typeof metadata.runId === "string" ? metadata.runId : NO_RUN_FLOW;
  const share = (metadata.share ?? {}) as { weight?: unknown; maxSandboxes?: unknown };
  const weight =
    typeof share.weight === "number" && Number.isFinite(share.weight) && share.weight > 0 ? share.weight : 1;
  const cap = share.maxSandboxes;
  const maxInService = typeof cap === "number" && Number.isInteger(cap) && cap > 0 ? cap : null;
  return { flowId: runId, weight, priority: record.priority, maxInService };
}
