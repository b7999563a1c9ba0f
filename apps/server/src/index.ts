export { configFromEnv } from "./config-from-env";
export { parseServerEnv } from "./env";

export { startServer } from "./server";
