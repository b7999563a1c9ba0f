export { type BackendSeed, defaultBackendId, parseBackendList } from "./backend-list.parser";
export { type ComposedEngine, type ComposeOptions, composeEngine, type StoreConfig } from "./compose";
export {
  type AgentHandlersOptions,
  type ChatFormatName,
  type ComposedAgentHandlers,
  composeAgentHandlers,
} from "./compose-handlers";
export { type ComposedInference, composeInference, type InferenceConfig } from "./compose-inference";
export { composeSandboxRuntime, type SandboxConfig, SandboxUnavailableError } from "./compose-sandbox";
export { configFromEnv } from "./config-from-env";
export { EnvError, parseServerEnv, type TServerEnv, ZServerEnv } from "./env";
export { loadServerEnvFiles, type ServerEnvFiles } from "./env-files";
export { createServerLogger } from "./logger";
export { type RunningServer, type ServerConfig, startServer } from "./server";
