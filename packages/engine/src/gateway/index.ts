export * from "./build-gateway-traces";
export * from "./token-prefix";
