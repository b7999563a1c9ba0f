export { parseWorkerEnv, type TWorkerEnv, ZWorkerEnv } from "./env";
export { type RunningWorker, startWorker, type WorkerState } from "./start-worker";
export { type WorkerConfig, workerConfigFromEnv } from "./worker-config";
