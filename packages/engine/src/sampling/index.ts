export * from "./harness-sampling";
export * from "./sampling-record";
