// The workers' side of the simulated scheduler: per-stage pools on each worker, one shared queue
// per stage (any worker with a free slot takes the oldest item), and per-worker addressed queues
// for RUN and EVAL when jobs must run where their sandbox lives.
import { Fifo } from "./fifo";
import type { SimJob, TPools, TScaleSimConfig, TStage } from "./scale-sim.types";

export const STAGES: readonly TStage[] = ["init", "run", "eval"];

export interface SimWorker {
  index: number;
  active: TPools;
  /** Sandboxes this worker holds: from its INIT lease until the job leaves it. */
  sandboxes: number;
  addressed: Record<"run" | "eval", Fifo<SimJob>>;
  /** Whether the worker is already waiting on the shared queue of each stage. */
  waiting: Record<TStage, boolean>;
}

/** Called when `worker` takes `job` for `stage` at `nowMs`; the slot is already counted. */
export type TakeHandler = (worker: SimWorker, stage: TStage, job: SimJob, nowMs: number) => void;

export class WorkerPool {
  readonly workers: SimWorker[];
  readonly #shared: Record<TStage, Fifo<SimJob>> = { init: new Fifo(), run: new Fifo(), eval: new Fifo() };
  readonly #waiters: Record<TStage, Fifo<SimWorker>> = {
    init: new Fifo(),
    run: new Fifo(),
    eval: new Fifo(),
  };
  readonly #pools: TPools;
  readonly #affinity: boolean;
  /** A worker takes new INIT work only while it holds fewer sandboxes than its pools' total. */
  readonly #maxSandboxes: number;
  readonly #onTake: TakeHandler;

  constructor(config: Pick<TScaleSimConfig, "nodes" | "pools" | "affinity">, onTake: TakeHandler) {
    this.#pools = config.pools;
    this.#affinity = config.affinity;
    this.#maxSandboxes = config.pools.init + config.pools.run + config.pools.eval;
    this.#onTake = onTake;
    this.workers = Array.from({ length: config.nodes }, (_, index) => ({
      index,
      active: { init: 0, run: 0, eval: 0 },
      sandboxes: 0,
      addressed: { run: new Fifo<SimJob>(), eval: new Fifo<SimJob>() },
      waiting: { init: false, run: false, eval: false },
    }));
  }

  /** Makes `job` ready for `stage`: addressed to `holder` under affinity, else on the shared queue. */
  enqueue(job: SimJob, stage: TStage, holder: SimWorker | null, nowMs: number): void {
    job.readyAtMs = nowMs;
    if (stage !== "init" && this.#affinity && holder !== null) {
      holder.addressed[stage].push(job);
      this.dispatch(holder, nowMs);
      return;
    }
    this.#shared[stage].push(job);
    const waiters = this.#waiters[stage];
    while (this.#shared[stage].length > 0 && waiters.length > 0) {
      const worker = waiters.shift() as SimWorker;
      worker.waiting[stage] = false;
      this.dispatch(worker, nowMs);
    }
  }

  /** A stage of `worker` finished and handed its job on. */
  release(worker: SimWorker, stage: TStage): void {
    worker.active[stage] -= 1;
    const leaves = stage === "eval" || (stage === "init" && !this.#affinity);
    if (leaves) worker.sandboxes -= 1;
  }

  /** Fills `worker`'s free slots, later stages first (they free sandboxes); waits where nothing is queued. */
  dispatch(worker: SimWorker, nowMs: number): void {
    for (let s = STAGES.length - 1; s >= 0; s--) {
      const stage = STAGES[s] as TStage;
      const source = stage !== "init" && this.#affinity ? worker.addressed[stage] : this.#shared[stage];
      while (this.#canTake(worker, stage) && source.length > 0) {
        const job = source.shift() as SimJob;
        worker.active[stage] += 1;
        if (stage === "init") worker.sandboxes += 1;
        this.#onTake(worker, stage, job, nowMs);
      }
      const onShared = source === this.#shared[stage];
      if (onShared && !worker.waiting[stage] && this.#canTake(worker, stage)) {
        worker.waiting[stage] = true;
        this.#waiters[stage].push(worker);
      }
    }
  }

  /** Stages where `worker` has a free slot and nothing to take: its reserves wait on Redis. */
  idleStages(worker: SimWorker): number {
    let idle = 0;
    for (const stage of STAGES) {
      const source = stage !== "init" && this.#affinity ? worker.addressed[stage] : this.#shared[stage];
      if (source.length === 0 && this.#canTake(worker, stage)) idle += 1;
    }
    return idle;
  }

  #canTake(worker: SimWorker, stage: TStage): boolean {
    if (worker.active[stage] >= this.#pools[stage]) return false;
    return stage !== "init" || worker.sandboxes < this.#maxSandboxes;
  }
}
