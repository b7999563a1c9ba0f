export { DeadHostSweeper } from "./dead-host-sweeper";
export { MemorySandboxEventStore } from "./memory-sandbox-event-store";
