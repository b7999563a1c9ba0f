// `npm run bench -- rollouts [--jobs 50] [--store db|memory]`: a mixed run of real rollouts
// (math, code, stem, swe) through the running control plane over HTTP, with bubblewrap sandboxes
// and the inference simulator (the labelled test double) as the backend.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createRaasLogger } from "@raas/compose";
import { configFromEnv, parseServerEnv, startServer } from "@raas/server";
import { DEFAULT_MODEL_NAME, type TJob } from "@raas/shared";
import {
  buildSwePolicyConfig,
  type SweScriptInstance,
  startSimulator,
  type TPolicyConfigInput,
} from "@raas/simulator";
import type { Bench, BenchRow } from "./bench.types";
import { median, percentile } from "./stats";

const root = resolve(import.meta.dirname, "..");
const data = (file: string) => join(root, "packages/handlers/data", file);
const readJsonl = (file: string) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Round-robins the shipped tasks of each kind into `count` jobs, in kind order math, code, stem, swe. */
function mixedJobs(count: number): Array<{ kind: string; payload: Record<string, unknown> }> {
  const pools = [
    { kind: "math", tasks: readJsonl(data("math.jsonl")) },
    { kind: "code", tasks: readJsonl(data("code.jsonl")) },
    { kind: "stem", tasks: readJsonl(data("stem.jsonl")) },
    { kind: "swe", tasks: readJsonl(data("swe/instances.jsonl")) },
  ];
  const jobs = [];
  for (let i = 0; jobs.length < count; i += 1) {
    const pool = pools[i % pools.length]!;
    const task = pool.tasks[Math.floor(i / pools.length) % pool.tasks.length]!;
    jobs.push({ kind: pool.kind, payload: task });
  }
  return jobs;
}

async function api<T>(url: string, token: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as T & { error?: { message: string } };
  if (!response.ok) throw new Error(`${path}: ${response.status} ${json.error?.message ?? ""}`);
  return json;
}

function row(name: string, jobs: TJob[], wallMs: number | null): BenchRow {
  const mean = (values: number[]) =>
    values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
  const timing = (key: "initMs" | "runMs" | "evalMs") =>
    jobs.map((job) => job.timings[key]).filter((v): v is number => v !== null);
  const completed = jobs.filter((job) => job.status === "completed");
  const failures: Record<string, number> = {};
  for (const job of jobs) {
    if (job.failure) failures[job.failure.kind] = (failures[job.failure.kind] ?? 0) + 1;
  }
  return {
    name,
    jobs: jobs.length,
    completed: completed.length,
    failed:
      Object.entries(failures)
        .map(([kind, n]) => `${kind}:${n}`)
        .join(" ") || "-",
    meanReward: mean(completed.map((job) => job.reward ?? 0)),
    jobsPerSec: wallMs === null ? null : (jobs.length * 1_000) / wallMs,
    queueMsP50: median(jobs.map((job) => job.timings.queueMs)),
    initMsMean: mean(timing("initMs")),
    runMsMean: mean(timing("runMs")),
    evalMsMean: mean(timing("evalMs")),
    runMsP95: percentile(timing("runMs"), 95),
  };
}

const bench: Bench = {
  name: "rollouts",
  description:
    "mixed math/code/stem/swe rollouts through the running server (REST), bubblewrap sandboxes, simulator backend",
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        jobs: { type: "string", default: "50" },
        store: { type: "string", default: "db" },
        concurrency: { type: "string", default: "8" },
      },
    });
    const count = Number(values.jobs);
    const sweInstances = readJsonl(data("swe/instances.jsonl")) as unknown as SweScriptInstance[];
    const solved = new Set(
      sweInstances.map((i) => i.instance_id).filter((id) => !id.includes("textwrapper")),
    );
    const mathCodeStem = JSON.parse(readFileSync(data("simulator/math-code-stem.policy.json"), "utf8")) as {
      kind: "scripted";
      tasks: Record<string, unknown>;
    };
    const policy = {
      ...mathCodeStem,
      tasks: { ...mathCodeStem.tasks, ...buildSwePolicyConfig(sweInstances, solved).tasks },
    } as TPolicyConfigInput;
    const simulator = await startSimulator({ policy, seed: 7 });
    const dataDir = mkdtempSync(join(tmpdir(), "raas-bench-rollouts-"));
    const token = "bench-admin";
    const concurrency = values.concurrency ?? "8";
    const env = parseServerEnv({
      PORT: "0",
      RAAS_STORE: values.store === "memory" ? "memory" : "db",
      RAAS_DATA_DIR: dataDir,
      RAAS_ADMIN_TOKEN: token,
      RAAS_BACKENDS: `vllm=${simulator.url}#${DEFAULT_MODEL_NAME}`,
      RAAS_SWE_REPOS_DIR: data("swe/bundles"),
      RAAS_INIT_CONCURRENCY: concurrency,
      RAAS_RUN_CONCURRENCY: concurrency,
      RAAS_EVAL_CONCURRENCY: concurrency,
      LOG_LEVEL: "warn",
      PATH: process.env.PATH,
    });
    const config = configFromEnv(env);
    // The shipped hanging suite would otherwise hold a job for SWE-bench's 900 s default.
    const swe = config.agentHandlers ? config.agentHandlers.swe : undefined;
    if (swe) swe.testTimeoutMs = 20_000;
    const server = await startServer({ ...config, logger: createRaasLogger("warn") });
    try {
      const jobs = mixedJobs(count);
      const startedAt = performance.now();
      const submitted = await api<{ results: Array<{ job: TJob }> }>(
        server.url,
        token,
        "/api/v1/jobs/batch",
        {
          jobs,
        },
      );
      const ids = submitted.results.map((r) => r.job.id);
      let finished: TJob[] = [];
      for (;;) {
        const waited = await api<{ jobs: TJob[]; done: boolean }>(server.url, token, "/api/v1/jobs/wait", {
          ids,
          timeoutMs: 30_000,
        });
        finished = waited.jobs;
        const done = finished.filter((job) =>
          ["completed", "failed", "cancelled"].includes(job.status),
        ).length;
        process.stderr.write(`\r  ${done}/${ids.length} jobs finished`);
        if (waited.done) break;
      }
      const wallMs = performance.now() - startedAt;
      process.stderr.write("\n");
      const byKind = ["math", "code", "stem", "swe"].map((kind) =>
        row(
          kind,
          finished.filter((job) => job.kind === kind),
          null,
        ),
      );
      const all = row("all", finished, wallMs);
      const infra = finished.filter((job) => job.failure && job.failure.kind !== "agent").length;
      return {
        bench: "rollouts",
        description: bench.description,
        rows: [all, ...byKind],
        summary: {
          jobs: finished.length,
          wallSeconds: Number((wallMs / 1_000).toFixed(1)),
          jobsPerSec: Number(((finished.length * 1_000) / wallMs).toFixed(2)),
          infrastructureFailures: infra,
          store: server.storeKind,
          stageConcurrency: Number(concurrency),
          backend: "simulator (labelled test double)",
        },
        config: { count, store: values.store, concurrency },
      };
    } finally {
      await server.close();
      await simulator.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

export default bench;
