export * from "./worker-bus-message";
export * from "./worker-defaults";
export * from "./worker-heartbeat";
export * from "./worker-monitor";
