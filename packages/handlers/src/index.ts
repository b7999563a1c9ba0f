export type { AgentInitOutput } from "./base/agent-handler.types";
export { defineAgentHandler } from "./base/define-agent-handler";

export { createEnvironmentTaskCatalog } from "./catalog/environment-task-catalog";
export { createShippedTaskCatalog } from "./catalog/shipped-task-catalog";
export type { TCodePayload } from "./code/code-handler";

export { runHiddenTests } from "./code/hidden-tests";
export { createHandlers, type HandlersConfig } from "./create-handlers";
export {
  type HarborJobRequest,
  harborJobRequest,
  harborOracleScript,
  loadHarborDataset,
} from "./harbor/harbor-task-loader";
export {
  createHarnessHandler,
  type HarnessGateway,
} from "./harness/harness-handler";
export { createHarnessInstallCache } from "./harness/recipes/harness-install-cache";
export { HARNESS_RECIPES } from "./harness/recipes/harness-recipes";
export { judgeJobRequest, loadJudgeEnvironment } from "./judge/judge-env-loader";
export type { JudgeModel } from "./judge/judge-model.types";
export {
  type EnvironmentBenchmarkResult,
  runEnvironmentBenchmark,
} from "./oracle/environment-benchmark-run";
export {
  inspectEnvironment,
  loadEnvironment,
} from "./oracle/environment-source";
export {
  type OracleCheckReport,
  runOracleCheck,
} from "./oracle/oracle-check";

export {
  createBundleDirRepoSource,
  createSweHandlerFactory,
  evaluateSwePatch,
  expandImagePattern,
  loadSweRepoSpecs,
  parsePredictions,
  parseSweInstance,
  parseSweJsonl,
  runSweBenchmark,
  type SweBenchmarkOutcome,
  type SweBenchmarkResult,
  type SweEvalOptions,
  type SweEvalReport,
  type SweHandlerConfig,
  type SweJobGateway,
  type SweRepoSpec,
  sweRunFiles,
  type TSweInstance,
  type TSwePayload,
  type TSwePrediction,
} from "./swe/index";
