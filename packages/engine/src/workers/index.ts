export { parseWorkerBusMessage } from "./worker-bus-message";

export { WorkerHeartbeat, type WorkerHeartbeatOptions } from "./worker-heartbeat";
export { WorkerMonitor } from "./worker-monitor";
