export * from "./worker-bus-message";
export * from "./worker-capacity";
export * from "./worker-defaults";
export * from "./worker-heartbeat";
export * from "./worker-monitor";
