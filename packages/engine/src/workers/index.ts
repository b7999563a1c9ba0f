export {
  parseWorkerBusMessage,
  type TWorkerBusMessage,
  WORKER_BUS_EVENTS,
  ZWorkerBusMessage,
} from "./worker-bus-message";
export { type LiveSlotsOptions, liveWorkerSlots, workerCapacity } from "./worker-capacity";
export {
  DEFAULT_HEARTBEAT_INTERVAL_MS,
  DEFAULT_MISSED_AFTER_MS,
  DEFAULT_MONITOR_INTERVAL_MS,
} from "./worker-defaults";
export { WorkerHeartbeat, type WorkerHeartbeatOptions } from "./worker-heartbeat";
export { WorkerMonitor, type WorkerMonitorOptions } from "./worker-monitor";
