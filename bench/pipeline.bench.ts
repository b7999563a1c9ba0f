import { parseArgs } from "node:util";
import {
  createSleepHandler,
  HandlerRegistry,
  MemoryJobQueue,
  MemoryJobStore,
  RolloutEngine,
} from "@raas/engine";
import type { Bench, BenchRow } from "./bench.types";

interface Config {
  jobs: number;
  initMs: number;
  runMs: number;
  evalMs: number;
  jitter: number;
  pools: { init: number; run: number; eval: number };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Deterministic jitter so every method sees the same stage durations. */
function durations(config: Config): Array<[number, number, number]> {
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const j = (ms: number) => ms * (1 - config.jitter + 2 * config.jitter * random());
  return Array.from({ length: config.jobs }, () => [j(config.initMs), j(config.runMs), j(config.evalMs)]);
}

/** Runs `items` through `workers` concurrent loops. */
async function pooled<T>(
  items: readonly T[],
  workers: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item);
      }
    }),
  );
}

/** Wall time and the finish time of each job, both relative to the start. */
interface RunTimes {
  elapsedMs: number;
  finishedAtMs: number[];
}

/** Completions per second between the 10th and 90th percentile finish, excluding fill and drain. */
function steadyRate(finishedAtMs: readonly number[]): number {
  const sorted = [...finishedAtMs].sort((a, b) => a - b);
  const lo = Math.floor(sorted.length * 0.1);
  const hi = Math.floor(sorted.length * 0.9) - 1;
  const span = (sorted[hi] ?? 0) - (sorted[lo] ?? 0);
  return span > 0 ? ((hi - lo) * 1_000) / span : Number.NaN;
}

async function engineRun(config: Config, plan: Array<[number, number, number]>): Promise<RunTimes> {
  const handlers = new HandlerRegistry().register(createSleepHandler());
  const store = new MemoryJobStore();
  const queue = new MemoryJobQueue();
  const pool = (concurrency: number) => ({ concurrency, timeoutMs: 60_000 });
  const engine = new RolloutEngine({
    store,
    queue,
    handlers,
    pools: { init: pool(config.pools.init), run: pool(config.pools.run), eval: pool(config.pools.eval) },
  });
  await engine.start();
  const finishedAtMs: number[] = [];
  engine.subscribe((event) => {
    if (event.job.status === "completed") finishedAtMs.push(performance.now() - started);
  });
  const started = performance.now();
  const submitted = await engine.submitJobs(
    plan.map(([initMs, runMs, evalMs]) => ({ kind: "sleep", payload: { initMs, runMs, evalMs } })),
  );
  const { done } = await engine.waitForJobs(
    submitted.map((s) => s.job.id),
    { timeoutMs: 600_000 },
  );
  const elapsed = performance.now() - started;
  if (!done) throw new Error("engine run did not finish");
  await engine.stop();
  return { elapsedMs: elapsed, finishedAtMs };
}

async function stagePhases(config: Config, plan: Array<[number, number, number]>): Promise<RunTimes> {
  const started = performance.now();
  const finishedAtMs: number[] = [];
  await pooled(plan, config.pools.init, async ([ms]) => sleep(ms));
  await pooled(plan, config.pools.run, async ([, ms]) => sleep(ms));
  await pooled(plan, config.pools.eval, async ([, , ms]) => {
    await sleep(ms);
    finishedAtMs.push(performance.now() - started);
  });
  return { elapsedMs: performance.now() - started, finishedAtMs };
}

async function perJobWorkers(workers: number, plan: Array<[number, number, number]>): Promise<RunTimes> {
  const started = performance.now();
  const finishedAtMs: number[] = [];
  await pooled(plan, workers, async ([a, b, c]) => {
    await sleep(a);
    await sleep(b);
    await sleep(c);
    finishedAtMs.push(performance.now() - started);
  });
  return { elapsedMs: performance.now() - started, finishedAtMs };
}

const bench: Bench = {
  name: "pipeline",
  description:
    "sleep-handler jobs through the engine's three overlapping stage pools vs the same pools run stage after stage (no overlap) vs one-worker-per-job",
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        jobs: { type: "string", default: "300" },
        "init-ms": { type: "string", default: "50" },
        "run-ms": { type: "string", default: "200" },
        "eval-ms": { type: "string", default: "400" },
        jitter: { type: "string", default: "0.2" },
        pools: { type: "string", default: "2,8,16" },
      },
    });
    const [init, run, evalPool] = (values.pools ?? "2,8,16").split(",").map(Number);
    const config: Config = {
      jobs: Number(values.jobs),
      initMs: Number(values["init-ms"]),
      runMs: Number(values["run-ms"]),
      evalMs: Number(values["eval-ms"]),
      jitter: Number(values.jitter),
      pools: { init: init ?? 2, run: run ?? 8, eval: evalPool ?? 16 },
    };
    const plan = durations(config);
    const workers = config.pools.init + config.pools.run + config.pools.eval;
    const boundPerSec = Math.min(
      (config.pools.init * 1_000) / config.initMs,
      (config.pools.run * 1_000) / config.runMs,
      (config.pools.eval * 1_000) / config.evalMs,
    );
    const measure = (name: string, workersUsed: number, times: RunTimes): BenchRow => {
      const jobs = times.finishedAtMs.length;
      const steady = steadyRate(times.finishedAtMs);
      return {
        name,
        workers: workersUsed,
        jobs,
        seconds: times.elapsedMs / 1_000,
        wallJobsPerSec: (jobs * 1_000) / times.elapsedMs,
        steadyJobsPerSec: steady,
        steadyOfBound: steady / boundPerSec,
      };
    };
    const engineRow = measure("engine (overlapping pools)", workers, await engineRun(config, plan));
    const phasesRow = measure("stage after stage (same pools)", workers, await stagePhases(config, plan));
    const perJobRow = measure("one worker per job", workers, await perJobWorkers(workers, plan));
    const sequentialRow = measure(
      "one job at a time",
      1,
      await perJobWorkers(1, plan.slice(0, Math.min(config.jobs, 10))),
    );
    const boundRow: BenchRow = {
      name: "bottleneck bound",
      workers,
      jobs: null,
      seconds: null,
      wallJobsPerSec: null,
      steadyJobsPerSec: boundPerSec,
      steadyOfBound: 1,
    };
    const steady = (row: BenchRow) => row.steadyJobsPerSec as number;
    // Baselines are compared wall clock to wall clock (the same jobs, start to last finish).
    const rate = (row: BenchRow) => row.wallJobsPerSec as number;
    return {
      bench: "pipeline",
      description: bench.description,
      rows: [boundRow, engineRow, phasesRow, perJobRow, sequentialRow],
      summary: {
        "engine steady / bound (target >= 0.9)": Number((steady(engineRow) / boundPerSec).toFixed(3)),
        "engine / stage-after-stage, equal workers, wall (target >= 2)": Number(
          (rate(engineRow) / rate(phasesRow)).toFixed(2),
        ),
        "engine / one-worker-per-job, equal workers, wall": Number(
          (rate(engineRow) / rate(perJobRow)).toFixed(2),
        ),
        "engine / one job at a time, wall": Number((rate(engineRow) / rate(sequentialRow)).toFixed(1)),
      },
      config: { ...config },
    };
  },
};

export default bench;
