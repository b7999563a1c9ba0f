export {
  parsePredictions,
  type TSwePrediction,
} from "./swe-bench-format";
export {
  runSweBenchmark,
  type SweBenchmarkOutcome,
  type SweBenchmarkResult,
  type SweJobGateway,
} from "./swe-benchmark-run";
export { evaluateSwePatch } from "./swe-evaluator";
export { createSweHandlerFactory, type SweHandlerConfig } from "./swe-handler";
export { expandImagePattern } from "./swe-image";
export { parseSweInstance, parseSweJsonl, type TSweInstance } from "./swe-instance.schema";
export type { SweEvalOptions, SweRepoSpec } from "./swe-options";
export type { TSwePayload } from "./swe-payload.schema";

export { createBundleDirRepoSource } from "./swe-repo-source";

export { loadSweRepoSpecs } from "./swe-repo-spec.schema";
export type { SweEvalReport } from "./swe-report.types";

export { sweRunFiles } from "./swe-run-summary";
