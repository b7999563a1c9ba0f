import type { BatchSystem, PolicyControl, TaskCatalog } from "@raas/training";

/**
 * The training runs, steps and groups behind the `runs.*`, `steps.*` and `datasets.*` procedures.
 * Type-only: the API depends on the engine's `BatchSystem` shape, never on its code; the app hands
 * in the one it composed (over the engine and the batch store), tests anything with this shape.
 */
export interface ControlPlaneBatches {
  system: Pick<
    BatchSystem,
    | "createRun"
    | "getRun"
    | "listRuns"
    | "finishRun"
    | "createStep"
    | "getStep"
    | "listSteps"
    | "listGroups"
    | "nextGroups"
    | "cancelStep"
    | "curriculumStats"
  >;
  /** The datasets a step may name as its task source; null when the server knows none. */
  catalog: TaskCatalog | null;
}

/**
 * The policies' owners, weight versions and weight-sync pauses behind the `policy.*` procedures
 * (the engine's `PolicyControl`): `runs.create` claims the run's policy for its trainer token.
 */
export type ControlPlanePolicy = Pick<
  PolicyControl,
  "stateOf" | "list" | "claim" | "setWeightVersion" | "pause" | "resume"
>;
