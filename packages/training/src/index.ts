// @raas/training: training runs on top of the engine — runs, steps and groups (DAPO dynamic
// sampling, carry-over, staleness, the failure budget, retention), the curriculum, and policy /
// weight-version control. It depends on the engine's public ports; the engine never imports it.

export { BatchSystem } from "./batches/batch-system";
export type {
  BatchEngine,
  BatchSystemOptions,
  TaskCatalog,
  WeightVersionSink,
} from "./batches/batch-system.types";
export { toGroupView, toRunView, toStepView } from "./batches/batch-views";
export { decideGroup, groupsToKeepInFlight, isGroupComplete } from "./batches/group-decision";
export type { NextGroupsResult } from "./batches/group-delivery";
export { isGroupInUse, memberJobIds, stepsDueForArchive } from "./batches/retention-policy";
export { type RetentionPass, RetentionSystem, type RetentionSystemOptions } from "./batches/retention-system";
export {
  addDeliveredRewards,
  addWaste,
  emptyRewardAggregate,
  laterWasteEntry,
  refreshStepStats,
} from "./batches/step-stats";
export { seededOrder, taskAt } from "./batches/task-draw";
export {
  gatewayTraceCertifier,
  isExcludedAsUncertified,
  type TraceCertifier,
} from "./batches/trace-certification";
export {
  type AdaptiveDraw,
  type AdaptiveDrawInput,
  drawAdaptive,
  isRetired,
  seededUnit,
  taskWeight,
  untriedWeight,
} from "./curriculum/adaptive-sampler";
export { type CurriculumSummary, summarizeTasks } from "./curriculum/curriculum-summary";
export {
  CurriculumTracker,
  type CurriculumTrackerOptions,
  historyDatasetOf,
  taskSamplingOf,
} from "./curriculum/curriculum-tracker";
export {
  emptyTaskHistory,
  outcomesOf,
  RECENT_OUTCOMES_KEPT,
  type TaskHistory,
  trailingSuccesses,
  windowPassRate,
  withOutcomes,
} from "./curriculum/task-history";
export { MemoryBatchStore } from "./memory/memory-batch-store";
export { MemoryCurriculumStore } from "./memory/memory-curriculum-store";
export { BusPolicySink, type FollowPolicyOptions, followPolicy } from "./policy/bus-policy-sink";
export { fanOutPolicy, PolicyControl } from "./policy/policy-control";
export type {
  BatchStore,
  GroupRecord,
  RewardAggregate,
  RunRecord,
  StepRecord,
} from "./ports/batch-store.port";
export { ZRewardAggregate, ZTaskCursors } from "./ports/batch-values.schema";
export type { CurriculumStore, SamplerState, TaskOutcomes } from "./ports/curriculum-store.port";
