// @raas/training: training runs on top of the engine — runs, steps and groups (DAPO dynamic
// sampling, carry-over, staleness, the failure budget, retention), the curriculum, and policy /
// weight-version control. It depends on the engine's public ports; the engine never imports it.

export { BatchSystem } from "./batches/batch-system";
export type { TaskCatalog } from "./batches/batch-system.types";

export { RetentionSystem } from "./batches/retention-system";

export { gatewayTraceCertifier } from "./batches/trace-certification";

export {
  RECENT_OUTCOMES_KEPT,
  type TaskHistory,
} from "./curriculum/task-history";
export { MemoryBatchStore } from "./memory/memory-batch-store";
export { MemoryCurriculumStore } from "./memory/memory-curriculum-store";
export { BusPolicySink, followPolicy } from "./policy/bus-policy-sink";
export { fanOutPolicy, PolicyControl } from "./policy/policy-control";
export type {
  BatchStore,
  GroupRecord,
  RunRecord,
  StepRecord,
} from "./ports/batch-store.port";
export { ZRewardAggregate, ZTaskCursors } from "./ports/batch-values.schema";
export type { CurriculumStore, SamplerState, TaskOutcomes } from "./ports/curriculum-store.port";
