// `npm run bench -- routing [--jobs 96] [--uneven-jobs 256] [--seed 1] [--only <policy>|uneven]`: four routing policies
// over N identical in-process simulators (the labelled GPU test double), same skewed multi-turn
// workload for each; then uneven backends (one at half speed, one restarting mid-run), ProRL vs ours.

import { StickyRouter } from "@raas/engine";
import { HttpInferenceBackend, JsonHttpClient, RoutedInferencePool } from "@raas/inference";
import { BlockPrefixCache, type RunningSimulator, startSimulator } from "@raas/simulator";
import type { Bench, BenchReport, BenchRow } from "./bench.types";
import { runUnevenScenario, unevenReport } from "./routing-uneven";
import {
  buildWorkload,
  FAMILIES,
  type Generate,
  type Job,
  LATENCY,
  POLICY,
  runJob,
} from "./routing-workload";
import { targetOf } from "./targets/bench-targets";
import { meetsTarget } from "./targets/target-verdict";

const BACKENDS = 4;
const SLOTS_PER_BACKEND = 8;
const CLIENT_CONCURRENCY = 64;

const OURS = "RaaS sticky least-loaded";
const STRATEGY_NAMES = [
  "round robin per request",
  "ProRL (sticky, counter never decremented)",
  "equal static split",
  OURS,
];

interface Strategy {
  name: string;
  /** Jobs per worker queue: one shared queue, or one queue per backend (static split). */
  queues(jobs: Job[]): Job[][];
  generate: Generate;
  releaseJob(jobId: string): void;
}

/**
 * Dispatch/completion events of one run, replayed afterwards into one unbounded cache: the
 * single-backend ideal hit rate. Prompts are prefixes of each job's final ids, so events are small.
 */
class IdealTrace {
  private readonly events: { ids: readonly number[]; length: number; isLookup: boolean }[] = [];
  record(ids: readonly number[], length: number, isLookup: boolean): void {
    this.events.push({ ids, length, isLookup });
  }
  hitRate(): number {
    const cache = new BlockPrefixCache({ capacityBlocks: Number.MAX_SAFE_INTEGER });
    let hits = 0;
    let queries = 0;
    for (const event of this.events) {
      const ids = event.ids.slice(0, event.length);
      if (!event.isLookup) cache.insert(ids);
      else {
        hits += cache.lookupAndInsert(ids);
        queries += ids.length;
      }
    }
    return hits / queries;
  }
}

function baselineStrategy(
  name: string,
  urls: string[],
  client: JsonHttpClient,
  pick: (job: Job, turn: number) => number,
  split = false,
): Strategy {
  const backends = urls.map(
    (url, i) =>
      new HttpInferenceBackend({ id: `sim-${i}`, kind: "vllm", baseUrl: url, model: "sim", client }),
  );
  const turns = new Map<string, number>();
  return {
    name,
    queues: (jobs) =>
      split
        ? backends.map((_, b) => jobs.filter((job) => Math.floor((job.index * BACKENDS) / jobs.length) === b))
        : [jobs],
    async generate(request, job) {
      const turn = turns.get(job.id) ?? 0;
      turns.set(job.id, turn + 1);
      const backend = backends[pick(job, turn)]!;
      const generation = await backend.generate(request);
      return {
        ...generation,
        backendId: backend.id,
        weightVersion: null,
        cachedPromptTokens: generation.cachedPromptTokens ?? 0,
        latencyMs: 0,
      };
    },
    releaseJob: (jobId) => turns.delete(jobId),
  };
}

function strategies(urls: string[], client: JsonHttpClient, jobCount: number): Strategy[] {
  let requestCounter = 0;
  const assigned = new Map<string, number>();
  const counters = new Array<number>(BACKENDS).fill(0);
  const pool = new RoutedInferencePool({ router: new StickyRouter({ overloadMargin: 4 }), client });
  urls.forEach((url, i) => {
    pool.registerBackend({
      id: `sim-${i}`,
      kind: "vllm",
      baseUrl: url,
      modelName: "sim",
      maxConcurrency: SLOTS_PER_BACKEND,
    });
  });
  return [
    baselineStrategy("round robin per request", urls, client, () => requestCounter++ % BACKENDS),
    baselineStrategy("ProRL (sticky, counter never decremented)", urls, client, (job) => {
      const known = assigned.get(job.id);
      if (known !== undefined) return known;
      const least = counters.indexOf(Math.min(...counters));
      counters[least] = (counters[least] ?? 0) + 1;
      assigned.set(job.id, least);
      return least;
    }),
    baselineStrategy(
      "equal static split",
      urls,
      client,
      (job) => Math.floor((job.index * BACKENDS) / jobCount),
      true,
    ),
    {
      name: "RaaS sticky least-loaded",
      queues: (jobs) => [jobs],
      generate: (request) => pool.generate(request),
      releaseJob: (id) => pool.releaseJob(id),
    },
  ];
}

async function measure(strategy: Strategy, sims: RunningSimulator[], jobs: Job[], ideal: IdealTrace | null) {
  const queues = strategy.queues(jobs).map((queue) => [...queue]);
  const workersPerQueue = Math.floor(CLIENT_CONCURRENCY / queues.length);
  const samples: number[][] = [];
  let isSteady = true;
  const sampler = setInterval(() => {
    if (isSteady) samples.push(sims.map((sim) => sim.snapshot().running + sim.snapshot().waiting));
  }, 10);
  const startedAt = performance.now();
  await Promise.all(
    queues.flatMap((queue) =>
      Array.from({ length: workersPerQueue }, async () => {
        for (let job = queue.shift(); job; job = queue.shift()) {
          if (queues.every((q) => q.length === 0)) isSteady = false;
          await runJob(job, strategy.generate, ideal);
          strategy.releaseJob(job.id);
        }
      }),
    ),
  );
  const seconds = (performance.now() - startedAt) / 1000;
  clearInterval(sampler);
  const totals = sims.map((sim) => sim.snapshot());
  const hits = totals.reduce((sum, t) => sum + t.prefixCacheHits, 0);
  const queries = totals.reduce((sum, t) => sum + t.prefixCacheQueries, 0);
  const meanPerBackend = sims.map(
    (_, b) => samples.reduce((sum, s) => sum + (s[b] ?? 0), 0) / Math.max(1, samples.length),
  );
  const mean = meanPerBackend.reduce((a, b) => a + b, 0) / BACKENDS;
  return {
    seconds,
    throughput: jobs.length / seconds,
    hitRate: queries === 0 ? 0 : hits / queries,
    imbalance: mean === 0 ? 1 : Math.max(...meanPerBackend) / mean,
  };
}

/** sim-1 (full speed) goes down 4 s into the run and comes back on the same port 3 s later. */
const UNEVEN_OUTAGE = { backend: 1, atMs: 4_000, downMs: 3_000 };

function evenSummary(
  results: Record<string, Awaited<ReturnType<typeof measure>>>,
  ideal: IdealTrace,
): Record<string, number | boolean> {
  const ours = results[OURS];
  if (!ours) return {};
  const staticSplit = results["equal static split"] ?? ours;
  const idealRate = ideal.hitRate();
  const speedup = ours.throughput / staticSplit.throughput;
  const hitRatio = ours.hitRate / idealRate;
  const met = (key: string, figure: number) => meetsTarget(targetOf("routing", key), figure);
  return {
    "single-backend ideal hit rate": Number(idealRate.toFixed(3)),
    "ours / static split throughput": Number(speedup.toFixed(2)),
    "ours hit rate / ideal": Number(hitRatio.toFixed(3)),
    "ours imbalance": Number(ours.imbalance.toFixed(2)),
    "target throughput >= 1.5x": met("ours / static split throughput", speedup),
    "target hit rate >= 0.95 of ideal": met("ours hit rate / ideal", hitRatio),
    "target imbalance <= 1.2": met("ours imbalance", ours.imbalance),
  };
}

const bench: Bench = {
  name: "routing",
  description:
    `${BACKENDS} simulators × ${SLOTS_PER_BACKEND} slots, ${CLIENT_CONCURRENCY} concurrent trajectories, 2–40 turns, ` +
    "long shared system prompts; jobs in dataset order (task families in blocks); static split = contiguous " +
    "equal shards; imbalance = max/mean of time-averaged per-backend in-flight while jobs remain queued. " +
    "Uneven (--only uneven; --uneven-jobs, default 256, so that steady state outweighs the longest trajectory): " +
    "one backend at half speed, another down 3 s mid-run, ProRL's policy vs ours; " +
    "throughput counts completed trajectories only",
  async run(args: string[]): Promise<BenchReport> {
    const flag = (name: string, fallback: number) => {
      const at = args.indexOf(`--${name}`);
      return at === -1 ? fallback : Number(args[at + 1]);
    };
    const jobCount = flag("jobs", 96);
    const jobs = buildWorkload(jobCount, flag("seed", 1));
    const rows: BenchRow[] = [];
    const results: Record<string, Awaited<ReturnType<typeof measure>>> = {};
    const ideal = new IdealTrace();
    const onlyAt = args.indexOf("--only");
    const only = onlyAt === -1 ? null : (args[onlyAt + 1] ?? "");
    const isUnevenOnly = only === "uneven";
    const evenNames = isUnevenOnly
      ? []
      : STRATEGY_NAMES.filter((n) => only === null || n.includes(only) || n === OURS);
    for (const name of evenNames) {
      const sims = await Promise.all(
        Array.from({ length: BACKENDS }, () =>
          startSimulator({ latency: LATENCY, maxConcurrency: SLOTS_PER_BACKEND, seed: 5, policy: POLICY }),
        ),
      );
      const client = new JsonHttpClient();
      const strategy = strategies(
        sims.map((sim) => sim.url),
        client,
        jobs.length,
      ).find((s) => s.name === name)!;
      const result = await measure(strategy, sims, jobs, name === OURS ? ideal : null);
      results[name] = result;
      rows.push({
        name,
        "trajectories/s": Number(result.throughput.toFixed(2)),
        seconds: Number(result.seconds.toFixed(1)),
        "cache hit rate": Number(result.hitRate.toFixed(3)),
        "imbalance max/mean": Number(result.imbalance.toFixed(2)),
      });
      await client.close();
      await Promise.all(sims.map((sim) => sim.close()));
    }
    const uneven =
      only === null || isUnevenOnly
        ? unevenReport(
            await runUnevenScenario(buildWorkload(flag("uneven-jobs", 256), flag("seed", 1)), {
              backends: BACKENDS,
              slotsPerBackend: SLOTS_PER_BACKEND,
              clients: CLIENT_CONCURRENCY,
              outage: UNEVEN_OUTAGE,
            }),
          )
        : { rows: [], summary: {} };
    rows.push(...uneven.rows);
    return {
      bench: "routing",
      description: bench.description,
      rows,
      summary: { ...evenSummary(results, ideal), ...uneven.summary },
      config: {
        backends: BACKENDS,
        slotsPerBackend: SLOTS_PER_BACKEND,
        clientConcurrency: CLIENT_CONCURRENCY,
        jobs: jobs.length,
        latency: LATENCY,
        families: FAMILIES,
        uneven: { halfSpeedBackend: BACKENDS - 1, outage: UNEVEN_OUTAGE },
      },
    };
  },
};

export default bench;
