export * from "./network-error";
export * from "./store-health";
export * from "./store-retry";
