// `npm run bench -- soak [--minutes 20] [--sample-s 30] [--idle-s 60] [--groups 8] [--group-size 4]
// [--dataset math] [--probability 0.6]`, or `--quick` (2 minutes, samples every 10 s, 20 s idle):
// a training run through the shipped Python client against the embedded default (`npm start`'s
// setup: PGlite store, bubblewrap sandboxes, the simulator as inference) with dynamic sampling
// and a weight bump after every step, after one warm-up step and an idle baseline. Every
// `--sample-s` it records the server's live sandboxes,
// bwrap processes, open fds, error log lines, store and WAL size; /health is probed every second.
// After the run the server is left idle for `--idle-s`, then sampled once more: what is still
// open then is leaked. See bench/soak/README.md.
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Bench, BenchRow } from "./bench.types";
import {
  descendantsNamed,
  entriesIn,
  entryNames,
  openFds,
  residentBytes,
  timedGet,
  treeBytes,
} from "./soak/host-probes";
import { ADMIN_TOKEN, type SoakStack, startSoakStack } from "./soak/soak-stack";
import { quantile, type SoakSample, summarizeSoak } from "./soak/soak-summary";
import { startTrainer } from "./soak/trainer-process";

const HEALTH_EVERY_MS = 1_000;
const HEALTH_TIMEOUT_MS = 10_000;
/** Failed jobs with none completed after which the run is taken as broken and stopped. */
const FAILING_SETUP_JOBS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function positive(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!(value > 0)) throw new Error(`--${flag}: expected a positive number, got "${text}"`);
  return value;
}

async function adminGet<T>(url: string): Promise<T | null> {
  try {
    const response = await fetch(url, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    return response.ok ? ((await response.json()) as T) : null;
  } catch {
    return null;
  }
}

/** Probes /health every second while running; hands out the latencies since the last take. */
class HealthProbe {
  readonly all: number[] = [];
  /** Probes that got no answer within HEALTH_TIMEOUT_MS (or were refused). */
  failures = 0;
  /** Answers other than 2xx (a degraded /health); their latency counts too. */
  notOk = 0;
  #since: number[] = [];
  #running = true;
  readonly #done: Promise<void>;

  constructor(url: string) {
    this.#done = (async () => {
      while (this.#running) {
        const probe = await timedGet(`${url}/health`, HEALTH_TIMEOUT_MS);
        if (probe === null) this.failures += 1;
        else {
          if (!probe.isOk) this.notOk += 1;
          this.all.push(probe.ms);
          this.#since.push(probe.ms);
        }
        await sleep(HEALTH_EVERY_MS);
      }
    })();
  }

  /** Forgets the probes so far (the warm-up's). */
  reset(): void {
    this.all.length = 0;
    this.#since = [];
    this.failures = 0;
    this.notOk = 0;
  }

  takeInterval(): number[] {
    const taken = this.#since;
    this.#since = [];
    return taken;
  }

  async stop(): Promise<void> {
    this.#running = false;
    await this.#done;
  }
}

async function takeSample(
  stack: SoakStack,
  startedAt: number,
  steps: number,
  health: number[],
): Promise<SoakSample> {
  const pid = stack.server.pid;
  const [stats, sandboxes, fds, rss, bwrap, dirs, storeBytes, walBytes] = await Promise.all([
    adminGet<{
      submitted: number;
      completed: number;
      cancelled: number;
      failedByKind: Record<string, number>;
    }>(`${stack.serverUrl}/api/v1/stats`),
    adminGet<{ live: number }>(`${stack.serverUrl}/api/v1/sandboxes/summary`),
    openFds(pid),
    residentBytes(pid),
    descendantsNamed(pid, "bwrap"),
    entriesIn(stack.sandboxDir),
    treeBytes(join(stack.dataDir, "pglite")),
    treeBytes(join(stack.dataDir, "pglite", "pg_wal")),
  ]);
  const p99 = quantile(health, 0.99);
  return {
    elapsedS: Math.round((Date.now() - startedAt) / 1_000),
    jobs: stats?.submitted ?? 0,
    completed: stats?.completed ?? 0,
    failed: Object.values(stats?.failedByKind ?? {}).reduce((sum, count) => sum + count, 0),
    cancelled: stats?.cancelled ?? 0,
    steps,
    liveSandboxes: sandboxes?.live ?? null,
    bwrapProcesses: bwrap,
    sandboxDirs: dirs,
    fds,
    rssBytes: rss,
    errorLogLines: stack.server.errorLineCount,
    storeBytes,
    walBytes,
    healthP99Ms: p99 === null ? null : Math.round(p99 * 10) / 10,
  };
}

/** Waits until the server holds no live sandbox and no bwrap process, at most `timeoutMs`. */
async function waitUntilIdle(stack: SoakStack, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const summary = await adminGet<{ live: number }>(`${stack.serverUrl}/api/v1/sandboxes/summary`);
    if (summary?.live === 0 && (await descendantsNamed(stack.server.pid, "bwrap")) === 0) break;
    await sleep(1_000);
  }
  await sleep(2_000);
}

const mib = (bytes: number | null) => (bytes === null ? null : Math.round((bytes / 1_048_576) * 10) / 10);

function row(name: string, sample: SoakSample): BenchRow {
  return {
    name,
    elapsedS: sample.elapsedS,
    jobs: sample.jobs,
    completed: sample.completed,
    failed: sample.failed,
    cancelled: sample.cancelled,
    steps: sample.steps,
    liveSandboxes: sample.liveSandboxes,
    bwrap: sample.bwrapProcesses,
    sandboxDirs: sample.sandboxDirs,
    fds: sample.fds,
    rssMiB: mib(sample.rssBytes),
    errorLines: sample.errorLogLines,
    storeMiB: mib(sample.storeBytes),
    walMiB: mib(sample.walBytes),
    healthP99Ms: sample.healthP99Ms,
  };
}

const bench: Bench = {
  name: "soak",
  description:
    "a training run through the Python client (dynamic sampling, weight bump per step) against the embedded default (PGlite, bubblewrap, simulator), sampled over time and once idle: leaked sandboxes, fd growth, error log lines, store and WAL growth, step-time drift, /health p99",
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        quick: { type: "boolean", default: false },
        minutes: { type: "string" },
        "sample-s": { type: "string" },
        "idle-s": { type: "string" },
        groups: { type: "string", default: "8" },
        "group-size": { type: "string", default: "4" },
        dataset: { type: "string", default: "math" },
        probability: { type: "string", default: "0.6" },
        "log-level": { type: "string", default: "info" },
      },
    });
    const quick = values.quick ?? false;
    const minutes = positive("minutes", values.minutes, quick ? 2 : 20);
    const sampleS = positive("sample-s", values["sample-s"], quick ? 10 : 30);
    const idleS = positive("idle-s", values["idle-s"], quick ? 20 : 60);
    const groups = positive("groups", values.groups, 8);
    const groupSize = positive("group-size", values["group-size"], 4);
    const probability = positive("probability", values.probability, 0.6);
    const config = { minutes, sampleS, idleS, groups, groupSize, dataset: values.dataset, probability };
    console.log(`starting the simulator and the server (embedded default) … ${JSON.stringify(config)}`);

    const stack = await startSoakStack({ probability, logLevel: values["log-level"] ?? "info" });
    const health = new HealthProbe(stack.serverUrl);
    const trainerOptions = {
      serverUrl: stack.serverUrl,
      groups,
      groupSize,
      dataset: values.dataset ?? "math",
    };
    let trainer: ReturnType<typeof startTrainer> | null = null;
    try {
      // One step first, then idle: the baseline then holds what a server opens once (pooled
      // connections, lazily loaded modules), so growth over the run is what the run left behind.
      console.log("warm-up step …");
      trainer = startTrainer({
        ...trainerOptions,
        seconds: 86_400,
        maxSteps: 1,
        runName: "soak-warm-up",
        onStep: (step) =>
          console.log(`  warm-up step: ${(step.ms / 1_000).toFixed(1)} s, ${step.groups} groups`),
      });
      await trainer.done;
      await waitUntilIdle(stack, idleS * 1_000);
      const startedAt = Date.now();
      health.reset();
      const baseline = await takeSample(stack, startedAt, 0, health.takeInterval());
      const rows: BenchRow[] = [row("baseline", baseline)];
      const samples: SoakSample[] = [];
      const stepMs: number[] = [];
      trainer = startTrainer({
        ...trainerOptions,
        seconds: minutes * 60,
        runName: "soak",
        onStep: (step) => {
          stepMs.push(step.ms);
          console.log(`  step ${step.step}: ${(step.ms / 1_000).toFixed(1)} s, ${step.groups} groups`);
        },
      });
      let isFinished = false;
      void trainer.proc.exited.then(() => {
        isFinished = true;
      });
      while (!isFinished) {
        const wakeAt = Date.now() + sampleS * 1_000;
        while (!isFinished && Date.now() < wakeAt) await sleep(200);
        if (isFinished) break;
        const sample = await takeSample(stack, startedAt, stepMs.length, health.takeInterval());
        samples.push(sample);
        rows.push(row(`t=${sample.elapsedS}s`, sample));
        console.log(`  sample ${JSON.stringify(rows.at(-1))}`);
        if (!stack.server.isRunning) throw new Error(`the server exited:\n${stack.server.tail()}`);
        // A broken setup (sandboxes that cannot start, no backend) fails every job and dynamic
        // sampling keeps drawing: stop rather than soak a failure for the whole duration.
        if (sample.completed === baseline.completed && sample.failed - baseline.failed >= FAILING_SETUP_JOBS)
          throw new Error(
            `${sample.failed} jobs failed and none completed; see GET /api/v1/jobs?status=failed`,
          );
      }
      await trainer.done;
      console.log(`trainer done after ${stepMs.length} steps; idle for ${idleS} s …`);
      await sleep(idleS * 1_000);
      const idle = await takeSample(stack, startedAt, stepMs.length, health.takeInterval());
      rows.push(row("idle", idle));
      console.log(
        `  sandbox directory when idle: ${(await entryNames(stack.sandboxDir)).join(", ") || "(empty)"}`,
      );
      await health.stop();
      const summary = summarizeSoak({
        baseline,
        samples,
        idle,
        stepMs,
        healthMs: health.all,
        healthFailures: health.failures,
        healthNotOk: health.notOk,
      });
      for (const line of stack.server.errorLines) console.log(`  server error line: ${line.slice(0, 300)}`);
      return { bench: "soak", description: bench.description, rows, summary, config };
    } finally {
      await trainer?.proc.stop(1_000);
      await health.stop();
      await stack.stop();
    }
  },
};

export default bench;
