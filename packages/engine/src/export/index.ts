export * from "./build-trajectory-export";
export * from "./token-break";
export * from "./trajectory-exporter";
