// `npm run bench -- api [--seconds 10] [--concurrency 64] [--mode rest|trpc|batch|all] [--store memory|db]`
// Starts the real server as a child process (so its RSS is its own), submits sleep jobs that stay
// in flight (10-minute INIT) over HTTP as fast as it can for a fixed time, and reads the server's
// RSS from its own /metrics when 10,000 jobs are in flight and at the end.
import { type ChildProcess, spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Bench, BenchReport, BenchRow } from "./bench.types";
import { percentile } from "./stats";
import { targetOf } from "./targets/bench-targets";
import { meetsTarget } from "./targets/target-verdict";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const TOKEN = "bench-trainer-token";
const IN_FLIGHT_MARK = 10_000;
const SUBMITS_TARGET = targetOf("api", "bestSingleSubmitsPerSec");
const RSS_TARGET = targetOf("api", "maxRssMiB");

type Mode = "rest" | "trpc" | "batch";
/** Jobs per request in `batch` mode (POST /api/v1/jobs/batch). */
const JOBS_PER_BATCH = 50;

interface Options {
  seconds: number;
  concurrency: number;
  modes: Mode[];
  store: "memory" | "db";
}

function parseArgs(args: string[]): Options {
  const value = (name: string) => {
    const index = args.indexOf(`--${name}`);
    return index === -1 ? undefined : args[index + 1];
  };
  const mode = value("mode") ?? "all";
  return {
    seconds: Number(value("seconds") ?? 10),
    concurrency: Number(value("concurrency") ?? 64),
    modes: mode === "all" ? ["rest", "trpc", "batch"] : [mode as Mode],
    store: (value("store") ?? "memory") as Options["store"],
  };
}

async function startServerProcess(store: Options["store"]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "apps/server/src/main.ts")], {
    cwd: root,
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      RAAS_STORE: store,
      RAAS_TRAINER_TOKEN: TOKEN,
      RAAS_ADMIN_TOKEN: `${TOKEN}-admin`,
      // Every job becomes active in INIT and sleeps there: "in flight" means really running.
      RAAS_INIT_CONCURRENCY: process.env.BENCH_INIT_CONCURRENCY ?? "64",
      RAAS_SHUTDOWN_GRACE_MS: "0",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let stderr = "";
    const timer = setTimeout(() => reject(new Error(`server did not start in 30 s:\n${stderr}`)), 30_000);
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once("exit", (code) => reject(new Error(`server exited with ${code}:\n${stderr}`)));
  });
  return { child, url };
}

function post(agent: Agent, url: URL, path: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          authorization: `Bearer ${TOKEN}`,
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

async function scrape(url: string): Promise<{ rssBytes: number; inFlight: number; cpuSeconds: number }> {
  const text = await fetch(`${url}/metrics`).then((response) => response.text());
  const value = (pattern: RegExp) =>
    [...text.matchAll(pattern)].reduce((sum, match) => sum + Number(match[1]), 0);
  return {
    rssBytes: value(/^process_resident_memory_bytes (\S+)$/gm),
    cpuSeconds: value(/^process_cpu_seconds_total (\S+)$/gm),
    inFlight:
      value(/^raas_stage_queued_jobs\{[^}]*\} (\S+)$/gm) + value(/^raas_stage_active_jobs\{[^}]*\} (\S+)$/gm),
  };
}

/** Brings the server to 10,000 jobs in flight with batch submits (untimed), then reads its RSS. */
async function topUpAndSampleRss(agent: Agent, base: URL, url: string, inFlight: number): Promise<number> {
  const job = { kind: "sleep", payload: { initMs: 600_000, runMs: 1, evalMs: 1 }, batchId: "bench-top-up" };
  const body = JSON.stringify({ jobs: Array.from({ length: JOBS_PER_BATCH }, () => job) });
  for (let missing = IN_FLIGHT_MARK - inFlight; missing > 0; missing -= JOBS_PER_BATCH) {
    await post(agent, base, "/api/v1/jobs/batch", body);
  }
  return (await scrape(url)).rssBytes;
}

async function runMode(mode: Mode, options: Options): Promise<BenchRow> {
  const { child, url } = await startServerProcess(options.store);
  const base = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const path = { rest: "/api/v1/jobs", trpc: "/trpc/jobs.submit", batch: "/api/v1/jobs/batch" }[mode];
  const job = { kind: "sleep", payload: { initMs: 600_000, runMs: 1, evalMs: 1 }, batchId: "bench" };
  const body = JSON.stringify(
    mode === "batch" ? { jobs: Array.from({ length: JOBS_PER_BATCH }, () => job) } : job,
  );
  const jobsPerRequest = mode === "batch" ? JOBS_PER_BATCH : 1;
  const latenciesMs: number[] = [];
  let submitted = 0;
  let errors = 0;
  let rssAtMark: number | null = null;
  let sampling = false;
  const before = await scrape(url);
  const startedAt = performance.now();
  const deadline = startedAt + options.seconds * 1_000;
  try {
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (performance.now() < deadline) {
          const sentAt = performance.now();
          const response = await post(agent, base, path, body);
          latenciesMs.push(performance.now() - sentAt);
          if (response.status >= 200 && response.status < 300) submitted += jobsPerRequest;
          else errors += 1;
          if (rssAtMark === null && !sampling && submitted >= IN_FLIGHT_MARK) {
            sampling = true;
            scrape(url).then((sample) => {
              if (sample.inFlight >= IN_FLIGHT_MARK) rssAtMark = sample.rssBytes;
              sampling = false;
            });
          }
        }
      }),
    );
    const elapsedSec = (performance.now() - startedAt) / 1_000;
    const end = await scrape(url);
    if (rssAtMark === null) rssAtMark = await topUpAndSampleRss(agent, base, url, end.inFlight);
    return {
      name: {
        rest: "REST POST /api/v1/jobs",
        trpc: "tRPC jobs.submit",
        batch: `REST POST /api/v1/jobs/batch (${JOBS_PER_BATCH}/req)`,
      }[mode],
      seconds: Number(elapsedSec.toFixed(2)),
      concurrency: options.concurrency,
      submitted,
      errors,
      submitsPerSec: Math.round(submitted / elapsedSec),
      p50Ms: Number(percentile(latenciesMs, 50).toFixed(2)),
      p99Ms: Number(percentile(latenciesMs, 99).toFixed(2)),
      inFlightAtEnd: end.inFlight,
      // Server CPU per accepted job: what one dedicated core could sustain, free of the load generator.
      serverCpuMsPerJob: Number(
        (((end.cpuSeconds - before.cpuSeconds) * 1_000) / Math.max(1, submitted)).toFixed(3),
      ),
      serverOneCoreJobsPerSec: Math.round(submitted / Math.max(1e-9, end.cpuSeconds - before.cpuSeconds)),
      rssMiBAt10k: rssAtMark === null ? null : Math.round(rssAtMark / 1024 ** 2),
      rssMiBAtEnd: Math.round(end.rssBytes / 1024 ** 2),
    };
  } finally {
    agent.destroy();
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

const bench: Bench = {
  name: "api",
  description:
    "HTTP submit throughput of the control plane (server in a child process, sleep jobs kept in flight) and its RSS",
  async run(args: string[]): Promise<BenchReport> {
    const options = parseArgs(args);
    const rows: BenchRow[] = [];
    for (const mode of options.modes) rows.push(await runMode(mode, options));
    // The target is about single-job submits; batch figures are reported beside them.
    const single = rows.filter((row) => !String(row.name).includes("batch"));
    const best = Math.max(...(single.length > 0 ? single : rows).map((row) => Number(row.submitsPerSec)));
    const worstRss = Math.max(...rows.map((row) => Number(row.rssMiBAtEnd)));
    return {
      bench: "api",
      description: bench.description,
      rows,
      summary: {
        bestSingleSubmitsPerSec: best,
        targetSubmitsPerSec: SUBMITS_TARGET.value as number,
        submitTargetMet: meetsTarget(SUBMITS_TARGET, best),
        // The load generator shares the machine's cores; this is the server's own capacity per core.
        serverOneCoreSingleSubmitsPerSec: Math.max(
          ...single.map((row) => Number(row.serverOneCoreJobsPerSec)),
        ),
        maxRssMiB: worstRss,
        rssTargetMiB: RSS_TARGET.value as number,
        rssTargetMet: meetsTarget(RSS_TARGET, worstRss),
        inFlightAtEnd: rows.map((row) => row.inFlightAtEnd).join(" / "),
      },
      config: {
        ...options,
        nodeVersion: process.version,
        inFlightMark: IN_FLIGHT_MARK,
        handler: "sleep (INIT 600 s)",
      },
    };
  },
};

export default bench;
