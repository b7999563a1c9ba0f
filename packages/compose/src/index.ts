export { type ComposedBackends, composeBackends } from "./compose-backends";
export { type ComposedBatches, composeBatches } from "./compose-batches";
export {
  type ComposedEngine,
  composeEngine,
  DistributedStoreError,
  type QueueConfig,
  type StoreConfig,
} from "./compose-engine";
export { type ComposedGateway, composeGateway } from "./compose-gateway";
export {
  type AgentHandlersOptions,
  type ComposedAgentHandlers,
  composeAgentHandlers,
} from "./compose-handlers";
export { composeHeldImages, composeImageCache, composeImagePrefetcher } from "./compose-image-cache";
export { type ComposedInference, composeInference, type InferenceConfig } from "./compose-inference";
export { loadModelFamily, type ModelFamilyConfig } from "./compose-model-family";
export { composeSandboxRuntime, type SandboxConfig, SandboxUnavailableError } from "./compose-sandbox";
export {
  defaultSandboxHostId,
  recordSandboxEvents,
  type SandboxEventRecording,
} from "./compose-sandbox-events";
export {
  type ComposedWorkers,
  composeWorkers,
  type WorkersConfig,
} from "./compose-workers";
export { ZBooleanFlag, ZOptionalText, ZPositiveInt, ZStoreWaitMs } from "./env/env-fields";
export { type RolloutHostConfig, rolloutHostConfigFromEnv } from "./env/host-config-from-env";
export {
  ROLLOUT_HOST_ENV_SHAPE,
  rolloutHostConflicts,
} from "./env/host-env";
export { type HostEnvFiles, loadHostEnvFiles } from "./env/host-env-files";
export { EnvError, parseEnvWith } from "./env/parse-env";

export { createRaasLogger } from "./logger";
