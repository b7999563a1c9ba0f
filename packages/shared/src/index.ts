export * from "./assert-never";
export * from "./errors";
export * from "./ids";
export * from "./job.schema";
export * from "./job-status";
export * from "./stage";
export * from "./stats.schema";
export * from "./trajectory.schema";
