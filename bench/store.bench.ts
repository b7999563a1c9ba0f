// `npm run bench -- store [--trajectories 1000000] [--measured 50000] [--database-url postgresql://…]
//                          [--concurrency 4] [--keep]`
// Creates its own PostgreSQL database and fills it with synthetic finished trajectories of
// realistic size: 2 000 templates through the real insert path, then server-side copies of them
// (bulk-copy.ts) up to `trajectories - measured`, then the last `measured` through the real insert
// path again (PrismaJobStore.insertJobs + appendTurns + appendToolCalls, the calls the engine's
// StoreWriter makes) into the full tables, timed: that is `insertsPerSec`. Adds the runs/steps/
// groups the dashboard reads, then times the dashboard's list/filter/aggregate queries through the
// same store code the API calls. The database is dropped at the end (unless --keep).
import { readFileSync } from "node:fs";
import { createJobStore, PrismaBatchStore, type PrismaJobStore } from "@raas/db";
import type { TJobListQuery } from "@raas/shared";
import pg from "pg";
import type { Bench, BenchReport, BenchRow } from "./bench.types";
import { percentile } from "./stats";
import { bulkCopyTrajectories } from "./store/bulk-copy";
import { loadRunsAndSteps } from "./store/runs-and-steps";
import {
  LAYOUT,
  placeOf,
  runIdOf,
  stepIdOf,
  syntheticTrajectory,
  taskIdOf,
  wholePromptTokens,
} from "./store/synthetic-trajectories";
import { targetOf } from "./targets/bench-targets";
import { describeTarget, meetsTarget } from "./targets/target-verdict";

const P95_TARGET = targetOf("store", "p95QueryMs");
const INSERTS_TARGET = targetOf("store", "insertsPerSec");
const BATCH = 250;
const REPEATS = 25;
const TEMPLATES = 2_000;

interface Options {
  trajectories: number;
  measured: number;
  databaseUrl: string;
  concurrency: number;
  keep: boolean;
}

function parseArgs(args: string[]): Options {
  const value = (name: string) => {
    const at = args.indexOf(`--${name}`);
    return at >= 0 ? args[at + 1] : undefined;
  };
  return {
    trajectories: Number(value("trajectories") ?? 1_000_000),
    measured: Number(value("measured") ?? 50_000),
    databaseUrl: value("database-url") ?? "postgresql://postgres@127.0.0.1:5432/postgres",
    concurrency: Number(value("concurrency") ?? 4),
    keep: args.includes("--keep"),
  };
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function databaseUrlOf(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** CPU seconds (user + system) the PostgreSQL backends serving `database` used so far. */
async function backendCpuSeconds(store: PrismaJobStore, database: string): Promise<Map<number, number>> {
  const rows = await store.prisma.$queryRawUnsafe<{ pid: number }[]>(
    `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
    database,
  );
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
      out.set(pid, (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // the backend exited
    }
  }
  return out;
}

/** Loads trajectories [from, to) with `concurrency` writers of BATCH trajectories each. */
async function load(store: PrismaJobStore, from: number, count: number, concurrency: number) {
  const startMs = Date.UTC(2026, 9, 1);
  let wholePrompt = 0;
  let storedTokens = 0;
  // The trajectories are made before the clock starts: making them is the bench's work, not the
  // insert path's (about a tenth of the client's CPU per trajectory).
  const batches: ReturnType<typeof syntheticTrajectory>[][] = [];
  for (let first = from; first < count; first += BATCH) {
    const batch = [];
    for (let i = first; i < Math.min(count, first + BATCH); i += 1) {
      const t = syntheticTrajectory(i, startMs + i * 50);
      wholePrompt += wholePromptTokens(t);
      for (const turn of t.turns) storedTokens += turn.responseIds.length;
      batch.push(t);
    }
    batches.push(batch);
  }
  let nextBatch = 0;
  let next = from;
  let lastReport = performance.now();
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  const writer = async () => {
    for (;;) {
      const batch = batches[nextBatch];
      if (!batch) return;
      nextBatch += 1;
      next += batch.length;
      await store.insertJobs(batch.map((t) => t.job));
      await store.appendTurns(batch.flatMap((t) => t.turns));
      await store.appendToolCalls(batch.flatMap((t) => t.toolCalls));
      if (performance.now() - lastReport > 30_000) {
        lastReport = performance.now();
        const seconds = (lastReport - started) / 1_000;
        console.error(
          `  loaded ${next - from} in ${seconds.toFixed(0)} s (${((next - from) / seconds).toFixed(0)}/s)`,
        );
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, writer));
  const seconds = (performance.now() - started) / 1_000;
  const clientCpu = process.cpuUsage(cpuStart);
  return {
    seconds,
    insertsPerSec: (count - from) / seconds,
    clientCpuSeconds: (clientCpu.user + clientCpu.system) / 1e6,
    wholePrompt,
    responseTokens: storedTokens,
  };
}

interface QueryCase {
  name: string;
  kind: "list" | "filter" | "aggregate" | "read";
  /** Runs the query for repetition `r`. */
  run(r: number): Promise<unknown>;
}

function queryCases(store: PrismaJobStore, batches: PrismaBatchStore, count: number): QueryCase[] {
  const steps = Math.max(1, Math.floor(count / LAYOUT.perStep));
  const runs = Math.min(LAYOUT.runs, steps);
  const run = (r: number) => runIdOf(r % runs);
  const step = (r: number) => (r * 7_919) % steps;
  const list = (query: Omit<TJobListQuery, "limit">) => store.listJobs({ ...query, limit: 50 });
  return [
    { name: "jobs.list newest", kind: "list", run: () => list({}) },
    { name: "jobs.list status=failed", kind: "filter", run: () => list({ status: "failed" }) },
    { name: "jobs.list failureKind=sandbox", kind: "filter", run: () => list({ failureKind: "sandbox" }) },
    {
      name: "jobs.list kind (handler)",
      kind: "filter",
      run: (r) => list({ kind: ["math", "code", "swe"][r % 3] }),
    },
    { name: "jobs.list runId", kind: "filter", run: (r) => list({ runId: run(r) }) },
    {
      name: "jobs.list runId+completed",
      kind: "filter",
      run: (r) => list({ runId: run(r), status: "completed" }),
    },
    {
      name: "jobs.list runId+reward≥0.5",
      kind: "filter",
      run: (r) => list({ runId: run(r), minReward: 0.5 }),
    },
    { name: "jobs.list reward 0.4–0.6", kind: "filter", run: () => list({ minReward: 0.4, maxReward: 0.6 }) },
    {
      name: "jobs.list taskId",
      kind: "filter",
      run: (r) => list({ taskId: taskIdOf(r % runs, (r * 131) % 5_000) }),
    },
    {
      name: "jobs.list groupId",
      kind: "filter",
      run: (r) => list({ groupId: `grp_bench_${String(step(r)).padStart(7, "0")}_03` }),
    },
    {
      name: "jobs.list runId page 2",
      kind: "list",
      run: async (r) => {
        const first = await list({ runId: run(r) });
        return first.nextCursor ? list({ runId: run(r), cursor: first.nextCursor }) : first;
      },
    },
    {
      name: "jobs.trajectory (job+turns+tools)",
      kind: "read",
      run: async (r) => {
        const id = `job_bench_${String((r * 104_729) % count).padStart(8, "0")}`;
        return Promise.all([store.getJob(id), store.listTurns(id), store.listToolCalls(id)]);
      },
    },
    { name: "runs.list", kind: "list", run: () => batches.listRuns(100) },
    { name: "runs.steps (reward curve)", kind: "aggregate", run: (r) => batches.listSteps(run(r)) },
    { name: "steps.groups", kind: "list", run: (r) => batches.listGroups(stepIdOf(step(r))) },
    {
      name: "runs overview (all runs from step stats)",
      kind: "aggregate",
      run: () =>
        store.prisma.$queryRawUnsafe(
          `SELECT run_id, count(*) AS steps, sum((stats->>'trajectories')::int) AS trajectories,
                  avg((stats->>'rewardMean')::float8) AS reward_mean, max(created_at_ms) AS last_step_at_ms
           FROM training_steps GROUP BY run_id`,
        ),
    },
  ];
}

/** The plan's top scan of the jobs table for the SQL a list filter becomes (EXPLAIN). */
async function jobsPlan(store: PrismaJobStore, where: string, params: unknown[]): Promise<string> {
  const rows = await store.prisma.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
    `EXPLAIN SELECT * FROM jobs WHERE ${where} ORDER BY id DESC LIMIT 51`,
    ...params,
  );
  const plan = rows.map((row) => row["QUERY PLAN"]).join("\n");
  const scan = plan.match(/(Index Only Scan|Index Scan|Bitmap Index Scan|Seq Scan)[^\n(]*/);
  return scan ? scan[0].replace(/\s+/g, " ").trim() : (plan.split("\n")[0] ?? "");
}

async function tableBytes(store: PrismaJobStore, table: string): Promise<number> {
  const rows = await store.prisma.$queryRawUnsafe<{ bytes: bigint }[]>(
    `SELECT pg_total_relation_size($1::regclass) AS bytes`,
    table,
  );
  return Number(rows[0]?.bytes ?? 0);
}

async function run(args: string[]): Promise<BenchReport> {
  const options = parseArgs(args);
  const database = `raas_bench_store_${process.pid}`;
  await adminQuery(options.databaseUrl, `CREATE DATABASE ${database}`);
  const url = databaseUrlOf(options.databaseUrl, database);
  const store = await createJobStore({ databaseUrl: url, maxConnections: options.concurrency + 4 });
  const rows: BenchRow[] = [];
  try {
    const total = options.trajectories;
    const templates = Math.min(TEMPLATES, total);
    const measured = Math.max(0, Math.min(options.measured, total - templates));
    console.error(`loading ${total} trajectories into ${database} …`);
    const sample = await load(store, 0, templates, options.concurrency);
    const bulkStarted = performance.now();
    await bulkCopyTrajectories(url, templates, templates, total - measured, (done) => {
      const seconds = (performance.now() - bulkStarted) / 1_000;
      console.error(`  copied up to ${done} in ${seconds.toFixed(0)} s`);
    });
    const bulkSeconds = (performance.now() - bulkStarted) / 1_000;
    const backendsBefore = await backendCpuSeconds(store, database);
    const loaded = await load(store, total - measured, total, options.concurrency);
    const clientCpu = loaded.clientCpuSeconds;
    const backendsAfter = await backendCpuSeconds(store, database);
    let serverCpu = 0;
    for (const [pid, seconds] of backendsAfter) serverCpu += seconds - (backendsBefore.get(pid) ?? 0);
    const cpuSeconds = clientCpu + serverCpu;
    rows.push({
      name: "insert finished trajectories (real path, into the full tables)",
      trajectories: measured,
      seconds: Number(loaded.seconds.toFixed(1)),
      perSec: Math.round(loaded.insertsPerSec),
      target: describeTarget(INSERTS_TARGET),
    });
    rows.push({
      name: "  CPU seconds per 1 000 (client + PostgreSQL backends)",
      seconds: Number(((cpuSeconds / Math.max(1, measured)) * 1_000).toFixed(2)),
      clientCpuS: Number(((clientCpu / Math.max(1, measured)) * 1_000).toFixed(2)),
      serverCpuS: Number(((serverCpu / Math.max(1, measured)) * 1_000).toFixed(2)),
      perSec: Math.round((2 * measured) / Math.max(cpuSeconds, 1e-9)),
      note: "perSec here: what 2 idle cores would sustain at that CPU cost",
    });
    rows.push({
      name: "bulk copy (server-side, not the insert path)",
      trajectories: total - measured - templates,
      seconds: Number(bulkSeconds.toFixed(1)),
    });
    await loadRunsAndSteps(url, options.trajectories);
    await store.prisma.$executeRawUnsafe("ANALYZE");

    const bytes = {
      jobs: await tableBytes(store, "jobs"),
      turns: await tableBytes(store, "turns"),
      toolCalls: await tableBytes(store, "tool_calls"),
    };
    const perTrajectory = (bytes.jobs + bytes.turns + bytes.toolCalls) / options.trajectories;
    const wholePromptBytes = ((sample.wholePrompt + loaded.wholePrompt) * 4) / (templates + measured);
    for (const [table, value] of Object.entries(bytes)) {
      rows.push({ name: `bytes/trajectory: ${table}`, bytes: Math.round(value / options.trajectories) });
    }
    rows.push({
      name: "bytes/trajectory: total (tables + indexes + TOAST)",
      bytes: Math.round(perTrajectory),
    });
    rows.push({
      name: "prompt ids if every prompt were stored whole",
      bytes: Math.round(wholePromptBytes),
      note: "not stored: prompts are deltas",
    });

    const batches = new PrismaBatchStore(store.prisma);
    const cases = queryCases(store, batches, options.trajectories);
    const all: number[] = [];
    for (const query of cases) {
      await query.run(0); // warm the plan cache and the connection
      const times: number[] = [];
      for (let r = 1; r <= REPEATS; r += 1) {
        const started = performance.now();
        await query.run(r);
        times.push(performance.now() - started);
      }
      all.push(...times);
      rows.push({
        name: query.name,
        kind: query.kind,
        p50Ms: Number(percentile(times, 50).toFixed(1)),
        p95Ms: Number(percentile(times, 95).toFixed(1)),
      });
    }
    const plans: Record<string, string> = {
      runId: await jobsPlan(store, "run_id = $1", [runIdOf(1)]),
      taskId: await jobsPlan(store, "task_id = $1", [taskIdOf(1, 7)]),
      status: await jobsPlan(store, "status = $1", ["failed"]),
      failureKind: await jobsPlan(store, "failure_kind = $1", ["sandbox"]),
      kind: await jobsPlan(store, "kind = $1", ["swe"]),
      rewardRange: await jobsPlan(store, "reward >= $1 AND reward <= $2", [0.4, 0.6]),
      runIdReward: await jobsPlan(store, "run_id = $1 AND reward >= $2", [runIdOf(1), 0.5]),
    };
    for (const [filter, plan] of Object.entries(plans)) rows.push({ name: `plan: ${filter}`, plan });
    const p95 = percentile(all, 95);
    const placed = placeOf(options.trajectories - 1);
    return {
      bench: "store",
      description:
        "PostgreSQL with synthetic finished trajectories (1–4 turns, 400-token first prompt, 150–350 sampled tokens per turn): bytes per trajectory, insert throughput through PrismaJobStore, p95 of the dashboard's list/filter/aggregate queries",
      rows,
      summary: {
        trajectories: options.trajectories,
        bytesPerTrajectory: Math.round(perTrajectory),
        insertsPerSec: Math.round(loaded.insertsPerSec),
        insertsTargetMet: meetsTarget(INSERTS_TARGET, loaded.insertsPerSec),
        insertsPerSecOnIdleCores: Math.round((2 * measured) / Math.max(cpuSeconds, 1e-9)),
        p95QueryMs: Number(p95.toFixed(1)),
        p95TargetMet: meetsTarget(P95_TARGET, p95),
        steps: placed.step + 1,
      },
      config: { ...options, batch: BATCH, repeats: REPEATS, layout: LAYOUT, database },
    };
  } finally {
    await store.close();
    if (!options.keep)
      await adminQuery(options.databaseUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  }
}

const bench: Bench = {
  name: "store",
  description: "trajectory store at scale on PostgreSQL: bytes, inserts/s, dashboard query p95",
  run,
};
export default bench;
