export * from "./build-gateway-traces";
export * from "./gateway-call-store.port";
export * from "./gateway-session-registry";
export * from "./memory-gateway-call-store";
export * from "./token-prefix";
