// `npm run bench -- routing [--jobs 128] [--seed 1]`: four routing policies over N in-process
// simulators (the labelled GPU test double), same skewed multi-turn workload for each.

import type { GenerateRequest, GenerateResult } from "@raas/engine";
// Relative until the engine index exports the routing module.
import { StickyRouter } from "@raas/engine";
import {
  createQwen3ModelFamily,
  HttpInferenceBackend,
  JsonHttpClient,
  RoutedInferencePool,
  TokenConversation,
} from "@raas/inference";
import { BlockPrefixCache, type RunningSimulator, startSimulator } from "@raas/simulator";
import type { Bench, BenchReport, BenchRow } from "./bench.types";

const BACKENDS = 4;
const SLOTS_PER_BACKEND = 8;
const CLIENT_CONCURRENCY = 64;
const GROUP_SIZE = 4;
const LATENCY = { prefillMsPerToken: 0.0075, decodeMsPerToken: 1.5 };
/** Every turn: ~150–250 tokens of thinking, then a bash call (simulated time dominates CPU cost). */
const POLICY = {
  kind: "scripted" as const,
  default: {
    steps: [
      {
        thinkingWords: [120, 200] as [number, number],
        toolCalls: [{ name: "bash", arguments: { command: "ls" } }],
      },
    ],
    repeatLast: true,
  },
};
const family = createQwen3ModelFamily();
const tools = [
  { name: "bash", description: "Run a shell command in the repository.", parameters: { type: "object" } },
];

interface Job {
  id: string;
  index: number;
  family: string;
  taskId: string;
  turns: number;
  seed: number;
}

/** Task families, submitted in dataset order (families in blocks): the skew static splits suffer from. */
const FAMILIES = [
  { name: "swe", share: 0.25, systemWords: 1_800, turns: [20, 40] },
  { name: "code", share: 0.25, systemWords: 1_000, turns: [6, 14] },
  { name: "math", share: 0.5, systemWords: 600, turns: [2, 4] },
] as const;

function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return ((state ^ (state >>> 13)) >>> 0) / 4_294_967_296;
  };
}

function words(random: () => number, count: number): string {
  const pool = [
    "repo",
    "test",
    "module",
    "config",
    "error",
    "trace",
    "value",
    "line",
    "patch",
    "build",
    "path",
  ];
  return Array.from({ length: count }, () => pool[Math.floor(random() * pool.length)]).join(" ");
}

function buildWorkload(jobCount: number, seed: number): Job[] {
  const random = rng(seed);
  const jobs: Job[] = [];
  for (const fam of FAMILIES) {
    const groups = Math.round((jobCount * fam.share) / GROUP_SIZE);
    for (let g = 0; g < groups; g += 1) {
      for (let m = 0; m < GROUP_SIZE; m += 1) {
        const [min, max] = fam.turns;
        const turns = min + Math.floor(random() * (max - min + 1));
        jobs.push({
          id: `${fam.name}-${g}-${m}`,
          index: jobs.length,
          family: fam.name,
          taskId: `${fam.name}-${g}`,
          turns,
          seed: jobs.length,
        });
      }
    }
  }
  return jobs;
}

const systemPrompts = new Map<string, string>(
  FAMILIES.map((fam, i) => [fam.name, `You are a ${fam.name} agent. ${words(rng(99 + i), fam.systemWords)}`]),
);

const OURS = "RaaS sticky least-loaded";
const STRATEGY_NAMES = [
  "round robin per request",
  "ProRL (sticky, counter never decremented)",
  "equal static split",
  OURS,
];

type Generate = (request: GenerateRequest, job: Job) => Promise<GenerateResult>;

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

async function runJob(job: Job, generate: Generate, ideal: IdealTrace | null): Promise<void> {
  const conversation = TokenConversation.start(
    family,
    [
      { role: "system", content: systemPrompts.get(job.family) ?? "" },
      { role: "user", content: `task_id: ${job.taskId}\nSolve the task.` },
    ],
    { tools },
  );
  const random = rng(job.seed * 7 + 1);
  for (let turn = 0; turn < job.turns; turn += 1) {
    const promptIds = conversation.promptIds;
    ideal?.record(promptIds, promptIds.length, true);
    const result = await generate(
      { jobId: job.id, promptIds, sampling: { maxTokens: 512, seed: job.seed } },
      job,
    );
    ideal?.record(promptIds, promptIds.length + result.responseIds.length, false);
    conversation.appendResponse(result.responseIds, result.logprobs);
    conversation.appendMessages([{ role: "tool", content: words(random, 80 + Math.floor(random() * 170)) }]);
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

const bench: Bench = {
  name: "routing",
  description:
    `${BACKENDS} simulators × ${SLOTS_PER_BACKEND} slots, ${CLIENT_CONCURRENCY} concurrent trajectories, 2–40 turns, ` +
    "long shared system prompts; jobs in dataset order (task families in blocks); static split = contiguous " +
    "equal shards; imbalance = max/mean of time-averaged per-backend in-flight while jobs remain queued",
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
    for (const name of STRATEGY_NAMES.filter((n) => only === null || n.includes(only) || n === OURS)) {
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
    const ours = results[OURS]!;
    const staticSplit = results["equal static split"] ?? ours;
    const idealRate = ideal.hitRate();
    const speedup = ours.throughput / staticSplit.throughput;
    const hitRatio = ours.hitRate / idealRate;
    return {
      bench: "routing",
      description: bench.description,
      rows,
      summary: {
        "single-backend ideal hit rate": Number(idealRate.toFixed(3)),
        "ours / static split throughput": Number(speedup.toFixed(2)),
        "ours hit rate / ideal": Number(hitRatio.toFixed(3)),
        "ours imbalance": Number(ours.imbalance.toFixed(2)),
        "target throughput >= 1.5x": speedup >= 1.5,
        "target hit rate >= 0.95 of ideal": hitRatio >= 0.95,
        "target imbalance <= 1.2": ours.imbalance <= 1.2,
      },
      config: {
        backends: BACKENDS,
        slotsPerBackend: SLOTS_PER_BACKEND,
        clientConcurrency: CLIENT_CONCURRENCY,
        jobs: jobs.length,
        latency: LATENCY,
        families: FAMILIES,
      },
    };
  },
};

export default bench;
