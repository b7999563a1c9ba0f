import type { BatchSystem, NextGroupsResult, PolicyControl, TaskCatalog } from "@raas/engine";

export type { NextGroupsResult, TaskCatalog };

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
 * The policy's weight version and weight-sync pause behind the `policy.*` procedures (the
 * engine's `PolicyControl`).
 */
export type ControlPlanePolicy = Pick<PolicyControl, "state" | "setWeightVersion" | "pause" | "resume">;
