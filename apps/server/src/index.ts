export { type ComposedEngine, type ComposeOptions, composeEngine, type StoreConfig } from "./compose";
export { configFromEnv } from "./config-from-env";
export { EnvError, parseServerEnv, type TServerEnv, ZServerEnv } from "./env";
export { createServerLogger } from "./logger";
export { type RunningServer, type ServerConfig, startServer } from "./server";
