import { hostname } from "node:os";
import {
  type BackendView,
  type EngineLogger,
  type EventBus,
  type ImagePrefetcher,
  type RolloutEngine,
  type SandboxRuntime,
  type StoreHealth,
  WorkerHeartbeat,
  WorkerMonitor,
  type WorkerPoolOccupancy,
  type WorkerRecord,
  type WorkerStore,
} from "@raas/engine";
import { STAGES, type TStage } from "@raas/shared";
import { InitGate } from "./init-gate";

/** The server as a worker, and its watch over every worker. */
export interface WorkersConfig {
  /** Node labels of this process's worker. Default none. */
  labels?: string[];
  /** Heartbeat interval of this process's worker in ms. Default the engine's (3_000). */
  heartbeatIntervalMs?: number;
  /** How often silent workers are looked for, in ms. Default the engine's (3_000). */
  monitorIntervalMs?: number;
  /** A worker silent this long is lost, in ms. Default the engine's (9_000, three beats). */
  missedAfterMs?: number;
  /**
   * Whether this process watches every worker (marks silent ones lost, recovers their jobs). The
   * server does; a worker process leaves it to the server. Default true.
   */
  monitor?: boolean;
}

export interface ComposedWorkers {
  /** This process's worker id; null when it runs no pools (and so is no worker). */
  workerId: string | null;
  heartbeat: WorkerHeartbeat | null;
  /** The gate of this process's INIT pool: drain holds it, and so may other reasons (a sick host). */
  initGate: InitGate;
  /** Null when `monitor` is false. */
  monitor: WorkerMonitor | null;
  /** Stops the monitor and marks this process's worker stopped. Idempotent. */
  close(): Promise<void>;
}

export interface ComposeWorkersOptions extends WorkersConfig {
  store: WorkerStore;
  engine: RolloutEngine;
  sandboxRuntime: SandboxRuntime;
  /** This process's worker id (`<hostname>:<pid>`, the same as its sandbox host id). */
  workerId: string;
  bus?: EventBus;
  /**
   * This process's view of its inference backends, stored with every heartbeat (distributed mode:
   * the control plane merges the workers' views into `backends.list`). Default none reported.
   */
  backends?: () => BackendView[];
  /**
   * This process's own record was marked lost (it was silent too long, e.g. paused or cut off;
   * its jobs were restarted elsewhere). A stale worker must not go on taking work under an id the
   * monitor will never recover again: the worker app stops. Default: logged only.
   */
  onSelfLost?: (worker: WorkerRecord) => void | Promise<void>;
  /** Why this process's worker takes no new work though it runs, sent with every heartbeat; null: healthy. Default none. */
  unhealthyReason?: () => string | null;
  /** This worker's image cache: reported with each beat, and the prefetches asked of it carried out. Default none. */
  images?: ImagePrefetcher;
  /** What to do with a worker the monitor found lost. Default: the engine restarts the jobs it held (`recoverWorker`). */
  onLost?: (worker: WorkerRecord) => void | Promise<void>;
  /**
   * This process's store health (`ComposedEngine.storeHealth`): the heartbeat beats at once when
   * the store is back, and the monitor marks no worker lost while the store is (or was just)
   * unreachable — their heartbeats could not be written. Default none.
   */
  storeHealth?: StoreHealth;
  /** The INIT gate a drain holds, shared with the process's other reasons. Default a gate of its own. */
  initGate?: InitGate;
  logger: EngineLogger;
}

/**
 * Registers this process as a worker when it runs pools (heartbeating with the engine's pool
 * occupancy and its live sandboxes) and starts the monitor that marks silent workers lost. Drained,
 * it holds its INIT gate until resumed: no new job starts here, while the jobs already started
 * go on through RUN and EVAL (queued addressed to this worker, they could run nowhere else).
 */
export async function composeWorkers(options: ComposeWorkersOptions): Promise<ComposedWorkers> {
  const { engine, logger } = options;
  const liveSandboxes = countLiveSandboxes(options.sandboxRuntime);
  const runsPools = Object.values(engine.stats().stages).some((stage) => stage.concurrency > 0);
  const initGate = options.initGate ?? new InitGate(engine);
  let heartbeat: WorkerHeartbeat | null = null;
  if (runsPools) {
    heartbeat = new WorkerHeartbeat({
      store: options.store,
      workerId: options.workerId,
      hostname: hostname(),
      pid: process.pid,
      labels: options.labels ?? [],
      pools: () => poolsOf(engine),
      sandboxes: liveSandboxes.count,
      ...(options.backends && { backends: options.backends }),
      ...(options.unhealthyReason && { unhealthyReason: options.unhealthyReason }),
      ...(options.images && { images: options.images }),
      ...(options.heartbeatIntervalMs !== undefined && { intervalMs: options.heartbeatIntervalMs }),
      ...(options.bus && { bus: options.bus }),
      ...(options.storeHealth && { storeHealth: options.storeHealth }),
      logger,
      onDrain: () => {
        initGate.hold("draining");
        logger.info({ workerId: options.workerId }, "worker drained: started jobs finish, no new ones start");
      },
      ...(options.onSelfLost && { onLost: options.onSelfLost }),
      onResume: () => {
        initGate.release("draining");
        logger.info({ workerId: options.workerId, initHeldBy: initGate.reasons() }, "worker resumed");
      },
    });
    await heartbeat.start();
  }
  const own = heartbeat;
  const monitor =
    options.monitor === false
      ? null
      : new WorkerMonitor({
          store: options.store,
          ...(options.monitorIntervalMs !== undefined && { intervalMs: options.monitorIntervalMs }),
          ...(options.missedAfterMs !== undefined && { missedAfterMs: options.missedAfterMs }),
          ...(options.bus && { bus: options.bus }),
          ...(options.storeHealth && { storeHealth: options.storeHealth }),
          logger,
          ...(own && { beforeSweep: () => own.beat() }),
          onLost: options.onLost ?? ((worker) => recoverLostWorker(engine, worker.id, logger)),
        });
  monitor?.start();
  let closing: Promise<void> | null = null;
  return {
    workerId: heartbeat ? options.workerId : null,
    heartbeat,
    initGate,
    monitor,
    close() {
      closing ??= (async () => {
        await monitor?.stop();
        liveSandboxes.close();
        await own
          ?.stop()
          .catch((error: unknown) =>
            logger.warn({ err: error, workerId: options.workerId }, "could not mark this worker stopped"),
          );
      })();
      return closing;
    },
  };
}

function poolsOf(engine: RolloutEngine): Partial<Record<TStage, WorkerPoolOccupancy>> {
  const { stages } = engine.stats();
  const pools: Partial<Record<TStage, WorkerPoolOccupancy>> = {};
  for (const stage of STAGES) {
    pools[stage] = { concurrency: stages[stage].concurrency, active: stages[stage].active };
  }
  return pools;
}

const ENDED_STATES = new Set(["closed", "failed"]);

/** Sandboxes of the runtime that started and have not ended, from its lifecycle events. */
function countLiveSandboxes(runtime: SandboxRuntime): { count: () => number; close: () => void } {
  const live = new Set<string>();
  const unsubscribe = runtime.onEvent((event) => {
    if (ENDED_STATES.has(event.state)) live.delete(event.sandboxId);
    else live.add(event.sandboxId);
  });
  return { count: () => live.size, close: unsubscribe };
}

/** Restarts the jobs a lost worker held — never this process's own: it sweeps, so it is alive. */
async function recoverLostWorker(
  engine: RolloutEngine,
  workerId: string,
  logger: EngineLogger,
): Promise<void> {
  if (workerId === engine.workerId) return;
  const { restarted, failed } = await engine.recoverWorker(workerId);
  logger.warn(
    { workerId, restarted: restarted.length, failed: failed.length },
    "lost worker's jobs recovered",
  );
}
