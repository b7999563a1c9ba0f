export { configFromEnv } from "./config-from-env";
export { EnvError, parseServerEnv, type TServerEnv, ZServerEnv } from "./env";
export { loadServerEnvFiles, type ServerEnvFiles } from "./env-files";
export { type RunningServer, type ServerConfig, startServer } from "./server";
