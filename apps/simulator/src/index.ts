export { BlockPrefixCache } from "./cache/block-prefix-cache";
export type { LatencyModelOptions } from "./engine/latency-model";
export type { SimulatorCounters } from "./engine/simulated-model";
export { expressScripts } from "./policies/family-scripts";
export type { TPolicyConfigInput, TTaskScript } from "./policies/policy-config.schema";

export type { RunningSimulator, SimulatorOptions } from "./start-simulator";
export { startSimulator } from "./start-simulator";
export { buildHarnessSwePolicyConfig } from "./swe/harness-swe-scripts";
export { buildSwePolicyConfig, type SweScriptInstance, swePatchScript } from "./swe/swe-policy-scripts";
