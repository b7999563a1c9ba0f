export * from "./chat-format.port";
export * from "./clock.port";
export * from "./inference-pool.port";
export * from "./job-queue.port";
export * from "./job-record.types";
export * from "./job-store.port";
export * from "./sandbox-runtime.port";
export * from "./task-handler.port";
