// A discrete-event simulation of the distributed scheduler: N workers with per-stage pools, one
// shared queue per stage with leases, per-worker addressed RUN/EVAL queues (sandbox affinity), a
// store (PostgreSQL) and a queue/event bus (Redis) every worker shares, heartbeats and lease
// renewals. Virtual time only: no timers, the same seed gives the same run.
import { CentralService } from "./central-service";
import { EventQueue } from "./event-queue";
import { createRandom, sampleLogNormalMs } from "./random";
import type { SimJob, TScaleSimConfig, TScaleSimResult, TStage } from "./scale-sim.types";
import { type SimWorker, STAGES, WorkerPool } from "./worker-pool";

type SimEvent =
  | { kind: "inserted" | "queued"; job: SimJob }
  | {
      kind: "leased" | "job-read" | "finished" | "stored" | "handed-off";
      job: SimJob;
      worker: SimWorker;
      stage: TStage;
    }
  | { kind: "turn"; job: SimJob; worker: SimWorker; turnsLeft: number }
  | { kind: "tick"; worker: SimWorker; tick: number }
  | { kind: "monitor" | "measure" };

export function simulateScheduler(config: TScaleSimConfig): TScaleSimResult {
  const random = createRandom(config.seed);
  const events = new EventQueue<SimEvent>();
  const store = new CentralService(config.store);
  const redis = new CentralService(config.redis);
  const endMs = config.warmupMs + config.windowMs;
  const { profile } = config;
  // Worker upkeep (idle reserves, heartbeats, stalled checks, lease renewals) runs on this beat.
  const tickMs = config.idleReserveIntervalMs;
  let measuring = false;
  let completed = 0;
  let initWaitSumMs = 0;
  let runEvalWaitSumMs = 0;
  let batchLeft = 0;

  const pool = new WorkerPool(config, (worker, stage, job, nowMs) => {
    const waitMs = nowMs - job.readyAtMs;
    if (stage === "init") job.initWaitMs += waitMs;
    else job.runEvalWaitMs += waitMs;
    // The lease: one queue script; the job is read and moved in one compare-and-set after it.
    events.push(redis.request(nowMs), { kind: "leased", job, worker, stage });
  });

  const submit = (nowMs: number) => {
    const stageMs = {
      init: sampleLogNormalMs(random, profile.init.medianMs, profile.init.sigma),
      run: sampleLogNormalMs(random, profile.run.medianMs, profile.run.sigma),
      eval: sampleLogNormalMs(random, profile.eval.medianMs, profile.eval.sigma),
    };
    const turns = Math.max(1, Math.round(stageMs.run / profile.msPerTurn));
    const job: SimJob = { stageMs, turns, readyAtMs: 0, initWaitMs: 0, runEvalWaitMs: 0 };
    events.push(store.request(nowMs), { kind: "inserted", job });
  };

  const handle = (nowMs: number, event: SimEvent) => {
    switch (event.kind) {
      case "inserted":
        events.push(redis.request(nowMs), { kind: "queued", job: event.job });
        return;
      case "queued":
        pool.enqueue(event.job, "init", null, nowMs);
        return;
      case "leased":
        // A worker holds a job it ran a stage of; one it never saw (INIT) is read from the store.
        if (event.stage === "init") events.push(store.read(nowMs), { ...event, kind: "job-read" });
        else handle(nowMs, { ...event, kind: "job-read" });
        return;
      case "job-read": {
        const startedMs = store.request(nowMs);
        const { job, worker, stage } = event;
        if (stage === "run")
          events.push(startedMs + job.stageMs.run / job.turns, {
            kind: "turn",
            job,
            worker,
            turnsLeft: job.turns,
          });
        else events.push(startedMs + job.stageMs[stage], { kind: "finished", job, worker, stage });
        return;
      }
      case "turn": {
        const { job, worker, turnsLeft } = event;
        const storedMs = store.request(nowMs);
        if (turnsLeft > 1)
          events.push(storedMs + job.stageMs.run / job.turns, { ...event, turnsLeft: turnsLeft - 1 });
        else events.push(storedMs, { kind: "finished", job, worker, stage: "run" });
        return;
      }
      case "finished":
        events.push(store.request(nowMs), { ...event, kind: "stored" });
        return;
      case "stored":
        // Complete the lease, publish the job event and (before EVAL ends) enqueue the next stage.
        events.push(redis.request(nowMs, event.stage === "eval" ? 2 : 3), { ...event, kind: "handed-off" });
        return;
      case "handed-off": {
        const { job, worker, stage } = event;
        pool.release(worker, stage);
        if (stage === "eval") {
          if (measuring) {
            completed += 1;
            initWaitSumMs += job.initWaitMs;
            runEvalWaitSumMs += job.runEvalWaitMs;
          }
          if (config.batchJobs === 0) submit(nowMs);
          else if (--batchLeft === 0) submitBatch(nowMs);
        } else pool.enqueue(job, STAGES[STAGES.indexOf(stage) + 1] as TStage, worker, nowMs);
        pool.dispatch(worker, nowMs);
        return;
      }
      case "tick": {
        const { worker, tick } = event;
        const due = (intervalMs: number) => tick % Math.max(1, Math.round(intervalMs / tickMs)) === 0;
        const idle = pool.idleStages(worker);
        if (idle > 0) redis.request(nowMs, idle);
        if (due(config.heartbeatIntervalMs)) {
          store.request(nowMs);
          redis.request(nowMs);
        }
        if (due(config.stalledCheckIntervalMs)) redis.request(nowMs, config.queuesPerWorker);
        const leases = worker.active.init + worker.active.run + worker.active.eval;
        if (due(config.leaseRenewIntervalMs) && leases > 0) redis.request(nowMs, leases);
        events.push(nowMs + tickMs, { ...event, tick: tick + 1 });
        return;
      }
      case "monitor":
        // The server's sweep for missed heartbeats: one conditional update.
        store.request(nowMs);
        events.push(nowMs + config.heartbeatIntervalMs, event);
        return;
      case "measure":
        measuring = true;
        store.startMeasuring();
        redis.startMeasuring();
        return;
    }
  };

  const submitBatch = (nowMs: number) => {
    batchLeft = config.batchJobs;
    for (let i = 0; i < config.batchJobs; i++) submit(nowMs);
  };
  if (config.batchJobs > 0) submitBatch(0);
  else for (let i = 0; i < config.nodes * config.outstandingPerNode; i++) submit(0);
  pool.workers.forEach((worker, index) => {
    pool.dispatch(worker, 0);
    const offsetMs = (index / config.nodes) * tickMs;
    events.push(offsetMs, { kind: "tick", worker, tick: 1 });
  });
  events.push(0, { kind: "monitor" });
  events.push(config.warmupMs, { kind: "measure" });

  let processed = 0;
  for (let next = events.pop(); next !== undefined && next.timeMs <= endMs; next = events.pop()) {
    processed += 1;
    handle(next.timeMs, next.item);
  }

  const seconds = config.windowMs / 1_000;
  const jobs = Math.max(completed, 1);
  return {
    nodes: config.nodes,
    completedInWindow: completed,
    jobsPerSec: completed / seconds,
    meanInitWaitMs: initWaitSumMs / jobs,
    meanRunEvalWaitMs: runEvalWaitSumMs / jobs,
    storeOpsPerSec: (store.limitedOps + store.freeOps) / seconds,
    storeWritesPerSec: store.limitedOps / seconds,
    storeUtilisation: store.utilisation(config.windowMs),
    redisOpsPerSec: redis.limitedOps / seconds,
    redisUtilisation: redis.utilisation(config.windowMs),
    storeWritesPerJob: store.limitedOps / jobs,
    redisOpsPerJob: redis.limitedOps / jobs,
    events: processed,
  };
}
