import type { JobEvent, RolloutEngine } from "@raas/engine";
export type ApiJobEvent = JobEvent;

/**
 * The part of `RolloutEngine` the control plane calls. Type-only: the API depends on the
 * engine's shape, never on its code, and tests may hand in anything with this shape.
 */
export type ControlPlaneEngine = Pick<
  RolloutEngine,
  | "submitJob"
  | "submitJobs"
  | "getJob"
  | "listJobs"
  | "cancel"
  | "jobOwners"
  | "waitForJobs"
  | "getTrajectory"
  | "exportTrajectory"
  | "exportBatchTrajectories"
  | "stats"
  | "setConcurrency"
  | "handlerKinds"
  | "handlers"
  | "subscribe"
  | "onStageFinished"
>;
