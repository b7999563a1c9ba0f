// The light entry point `@raas/handlers/swe-benchmark`: dataset parsing, grading formats and the
// benchmark-run orchestration, without the handler's engine/inference/sandbox imports (for CLIs).
export * from "./swe-bench-format";
export * from "./swe-benchmark-run";
export * from "./swe-instance.schema";
export * from "./swe-report.types";
export * from "./swe-report-builder";
export * from "./test-status.types";
