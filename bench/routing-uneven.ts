// Uneven backends for `npm run bench -- routing`: one simulator at half speed, and one that dies
// mid-run and comes back on the same port a few seconds later. ProRL's policy (sticky, least
// cumulative assignments, counter never decremented, no retries) against ours (the server's
// routed pool: StickyRouter with its defaults, health monitor, outage budget).

import { StickyRouter } from "@raas/engine";
import {
  HttpInferenceBackend,
  type InferenceBackend,
  JsonHttpClient,
  RoutedInferencePool,
  startHealthMonitor,
} from "@raas/inference";
import { type RunningSimulator, startSimulator } from "@raas/simulator";
import type { BenchRow } from "./bench.types";
import { type Generate, type Job, LATENCY, POLICY, runJob } from "./routing-workload";
import { targetOf } from "./targets/bench-targets";
import { meetsTarget } from "./targets/target-verdict";

export interface UnevenSetup {
  backends: number;
  slotsPerBackend: number;
  clients: number;
  /** The backend that goes down, when (ms after the start) and for how long. */
  outage: { backend: number; atMs: number; downMs: number };
}

export interface UnevenResult {
  name: string;
  seconds: number;
  completed: number;
  failed: number;
  /** Completed trajectories per second (failed ones do not count). */
  throughput: number;
  hitRate: number;
  /** Share of generations the half-speed backend served. */
  slowShare: number;
}

const PRORL_UNEVEN = "uneven: ProRL (sticky, counter never decremented)";
const OURS_UNEVEN = "uneven: RaaS routed pool";
const HALF_SPEED = {
  prefillMsPerToken: LATENCY.prefillMsPerToken * 2,
  decodeMsPerToken: LATENCY.decodeMsPerToken * 2,
};

interface Policy {
  generate: Generate;
  releaseJob(jobId: string): void;
  close(): Promise<void>;
}

function prorlPolicy(urls: string[], client: JsonHttpClient): Policy {
  const backends: InferenceBackend[] = urls.map(
    (url, i) =>
      new HttpInferenceBackend({ id: `sim-${i}`, kind: "vllm", baseUrl: url, model: "sim", client }),
  );
  const counters = new Array<number>(urls.length).fill(0);
  const assigned = new Map<string, number>();
  return {
    async generate(request, job) {
      let index = assigned.get(job.id);
      if (index === undefined) {
        index = counters.indexOf(Math.min(...counters));
        counters[index] = (counters[index] ?? 0) + 1;
        assigned.set(job.id, index);
      }
      const backend = backends[index] as InferenceBackend;
      const generation = await backend.generate(request);
      return { ...generation, backendId: backend.id, weightVersion: null, latencyMs: 0 };
    },
    releaseJob: (jobId) => assigned.delete(jobId),
    close: async () => {},
  };
}

function oursPolicy(urls: string[], client: JsonHttpClient, slots: number): Policy {
  const pool = new RoutedInferencePool({ router: new StickyRouter(), client });
  urls.forEach((url, i) => {
    pool.registerBackend({
      id: `sim-${i}`,
      kind: "vllm",
      baseUrl: url,
      modelName: "sim",
      maxConcurrency: slots,
    });
  });
  const monitor = startHealthMonitor(pool);
  return {
    generate: (request) => pool.generate(request),
    releaseJob: (jobId) => pool.releaseJob(jobId),
    async close() {
      monitor.stop();
      await pool.close();
    },
  };
}

async function runPolicy(name: string, jobs: Job[], setup: UnevenSetup): Promise<UnevenResult> {
  const slowIndex = setup.backends - 1;
  const sims: RunningSimulator[] = await Promise.all(
    Array.from({ length: setup.backends }, (_, i) =>
      startSimulator({
        latency: i === slowIndex ? HALF_SPEED : LATENCY,
        maxConcurrency: setup.slotsPerBackend,
        seed: 5,
        policy: POLICY,
      }),
    ),
  );
  const client = new JsonHttpClient();
  const urls = sims.map((sim) => sim.url);
  const policy =
    name === OURS_UNEVEN ? oursPolicy(urls, client, setup.slotsPerBackend) : prorlPolicy(urls, client);
  const queue = [...jobs];
  let completed = 0;
  let failed = 0;
  const down = sims[setup.outage.backend] as RunningSimulator;
  const outage = new Promise<void>((resolve) => {
    setTimeout(async () => {
      await down.stopListening();
      setTimeout(() => down.listenAgain().then(resolve), setup.outage.downMs);
    }, setup.outage.atMs);
  });
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: setup.clients }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        try {
          await runJob(job, policy.generate, null);
          completed += 1;
        } catch {
          failed += 1;
        }
        policy.releaseJob(job.id);
      }
    }),
  );
  const seconds = (performance.now() - startedAt) / 1000;
  await outage;
  const totals = sims.map((sim) => sim.snapshot());
  const hits = totals.reduce((sum, t) => sum + t.prefixCacheHits, 0);
  const queries = totals.reduce((sum, t) => sum + t.prefixCacheQueries, 0);
  const served = totals.map((t) => t.requestsSucceeded);
  await policy.close();
  await client.close();
  await Promise.all(sims.map((sim) => sim.close()));
  return {
    name,
    seconds,
    completed,
    failed,
    throughput: completed / seconds,
    hitRate: queries === 0 ? 0 : hits / queries,
    slowShare:
      (served[slowIndex] ?? 0) /
      Math.max(
        1,
        served.reduce((a, b) => a + b, 0),
      ),
  };
}

/** Runs ProRL's policy, then ours, on fresh simulators with the same outage. */
export async function runUnevenScenario(jobs: Job[], setup: UnevenSetup): Promise<UnevenResult[]> {
  const results: UnevenResult[] = [];
  for (const name of [PRORL_UNEVEN, OURS_UNEVEN]) results.push(await runPolicy(name, jobs, setup));
  return results;
}

/** Table rows and summary figures of the uneven scenario (`vsProrlUneven` = ours ÷ ProRL throughput). */
export function unevenReport(results: UnevenResult[]): {
  rows: BenchRow[];
  summary: Record<string, number | boolean>;
} {
  const rows = results.map((r) => ({
    name: r.name,
    "trajectories/s": Number(r.throughput.toFixed(2)),
    seconds: Number(r.seconds.toFixed(1)),
    "cache hit rate": Number(r.hitRate.toFixed(3)),
    "failed trajectories": r.failed,
    "half-speed backend share": Number(r.slowShare.toFixed(3)),
  }));
  const prorl = results.find((r) => r.name === PRORL_UNEVEN);
  const ours = results.find((r) => r.name === OURS_UNEVEN);
  if (!prorl || !ours) return { rows, summary: {} };
  const ratio = ours.throughput / prorl.throughput;
  return {
    rows,
    summary: {
      vsProrlUneven: Number(ratio.toFixed(2)),
      "ours failed trajectories (uneven)": ours.failed,
      "ProRL failed trajectories (uneven)": prorl.failed,
      "ours hit rate (uneven)": Number(ours.hitRate.toFixed(3)),
      "target vsProrlUneven >= 1.3x": meetsTarget(targetOf("routing", "vsProrlUneven"), ratio),
      "target 0 failed trajectories (ours, uneven)": meetsTarget(
        targetOf("routing", "ours failed trajectories (uneven)"),
        ours.failed,
      ),
    },
  };
}
