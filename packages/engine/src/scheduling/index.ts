export * from "./fair-grant-queue";
export * from "./fair-queue";
export * from "./fair-share-options";
export * from "./job-flow";
export * from "./preemption";
