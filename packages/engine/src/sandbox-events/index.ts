export * from "./dead-host-sweeper";
export * from "./memory-sandbox-event-store";
export * from "./sandbox-event-recorder";
export * from "./sandbox-record-fold";
