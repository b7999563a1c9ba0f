export * from "./batch-system";
export * from "./batch-system.types";
export * from "./batch-views";
export * from "./group-decision";
export type { NextGroupsResult } from "./group-delivery";
export * from "./step-stats";
export * from "./task-draw";
export * from "./trace-certification";
