// `npm start`'s demo, end to end: scripts/start.mjs (--no-web) on a fresh data directory starts the
// server, the simulator (its seeded coin-flip policy) and `raas demo`; once the demo says it is
// done, the API holds the three training runs (finished, every step completed with trajectories,
// some group informative and some step's rewards spread) and the two SWE-bench runs over every
// shipped fixture. A second `raas demo` finds everything by its keys and adds nothing.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const tsx = join(root, "node_modules/tsx/dist/cli.mjs");
const sweInstances = readFileSync(join(root, "packages/handlers/data/swe/instances.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "").length;

type TRunRow = { id: string; runKey: string | null; status: string; stepCount: number };
type TStepRow = {
  id: string;
  status: string;
  stats: {
    trajectories: number;
    rewardMean: number | null;
    rewardMin: number | null;
    rewardMax: number | null;
    informative: number;
    groupsDecided: number;
  };
};
type TBenchmarkRow = { id: string; status: string; totalCount: number; resolvedCount: number };

let dir: string;
let url: string;
let start: ChildProcess;
let output = "";

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolvePort(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function get<T>(path: string): Promise<T> {
  // A fresh connection per read: a kept-alive one may be closed by the server between reads a
  // minute apart ("other side closed").
  const response = await fetch(`${url}${path}`, { headers: { connection: "close" } }).catch((error) => {
    throw new Error(`GET ${path} failed (${String(error)}); start.mjs said:\n${output.slice(-3_000)}`);
  });
  expect(response.status, path).toBe(200);
  return (await response.json()) as T;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "raas-start-demo-"));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  start = spawn(process.execPath, [join(root, "scripts/start.mjs"), "--no-web"], {
    cwd: root,
    // The memory store starts fastest on a busy machine; `npm start` uses PGlite under RAAS_DATA_DIR.
    env: {
      ...process.env,
      PORT: String(port),
      RAAS_DATA_DIR: dir,
      RAAS_STORE: "memory",
      RAAS_NO_APT: "1",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  start.stdout?.on("data", collect);
  start.stderr?.on("data", collect);
  // Generous: a loaded 2-core machine runs ~60 rollouts with sandboxes here.
  await new Promise<void>((done, fail) => {
    const timer = setInterval(() => {
      if (/\[demo\] done:/.test(output)) {
        clearInterval(timer);
        done();
      } else if (start.exitCode !== null || /\[start\] the demo stopped/.test(output)) {
        clearInterval(timer);
        fail(new Error(`start.mjs or its demo stopped:\n${output.slice(-4_000)}`));
      }
    }, 500);
  });
}, 1_200_000);

afterAll(async () => {
  if (start && start.exitCode === null) {
    const exited = new Promise((r) => start.once("exit", r));
    start.kill("SIGTERM");
    await exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("npm start's demo", () => {
  it("says it runs and how to switch it off, and when every page first had data", () => {
    expect(output).toMatch(/Demo: +running now .*--no-demo or RAAS_DEMO=0/);
    // The figure itself is a measurement (printed here for the reader), never asserted.
    const firstResults = output.match(
      /\[demo\] first results on every page after [\d.]+ s \(jobs queued [\d.]+ s; first step of demo-math [\d.]+ s, demo-code [\d.]+ s, demo-swe [\d.]+ s; benchmark comparison [\d.]+ s\)/,
    );
    expect(firstResults).not.toBeNull();
    console.info(
      `${firstResults?.[0]} — load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
  });

  it("stores finished training runs over math, code and swe whose steps all completed", async () => {
    const { items } = await get<{ items: TRunRow[] }>("/api/v1/runs");
    const demo = items.filter((run) => run.runKey?.startsWith("demo-"));
    expect(demo.map((run) => run.runKey).sort()).toEqual(["demo-code", "demo-math", "demo-swe"]);
    const allSteps: TStepRow[] = [];
    for (const run of demo) {
      expect(run.status).toBe("finished");
      const steps = (await get<{ items: TStepRow[] }>(`/api/v1/runs/${run.id}/steps`)).items;
      expect(steps.length).toBe(run.stepCount);
      expect(steps.length).toBeGreaterThan(1);
      for (const step of steps) {
        expect(step.status).toBe("completed");
        expect(step.stats.trajectories).toBeGreaterThan(0);
        expect(step.stats.rewardMean).not.toBeNull();
      }
      allSteps.push(...steps);
    }
    // The simulator's coin flip per trajectory: members of a group disagree in some step (the
    // informative-group chart is not flat at 0 %) and rewards within a step are spread.
    expect(allSteps.some((step) => step.stats.informative > 0)).toBe(true);
    expect(allSteps.some((step) => step.stats.rewardMin !== step.stats.rewardMax)).toBe(true);
    expect(allSteps.some((step) => step.stats.informative < step.stats.groupsDecided)).toBe(true);
  });

  it("stores two completed SWE-bench runs over every shipped instance, with different results", async () => {
    const { runs } = await get<{ runs: TBenchmarkRow[] }>("/api/v1/benchmarks");
    const demo = runs
      .filter((run) => run.id.startsWith("demo-swe-"))
      .sort((a, b) => a.id.localeCompare(b.id));
    expect(demo.map((run) => run.id)).toEqual([
      "demo-swe-half-gold-predictions",
      "demo-swe-simulator-rollouts",
    ]);
    for (const run of demo) {
      expect(run.status).toBe("completed");
      expect(run.totalCount).toBe(sweInstances);
    }
    // Gold patches on every other instance resolve exactly those; empty patches resolve none.
    expect(demo[0]?.resolvedCount).toBe(Math.ceil(sweInstances / 2));
    // The simulator solves some instances (its coin flip), so the two runs can be compared.
    expect(demo[1]?.resolvedCount).toBeGreaterThan(0);
    type TResult = { instanceId: string; resolved: boolean };
    const results = async (id: string) =>
      (await get<{ items: TResult[] }>(`/api/v1/benchmarks/${id}/results?limit=100`)).items;
    const [gold = [], rollouts = []] = await Promise.all(demo.map((run) => results(run.id)));
    // Both runs over the same instances, and the per-instance matrix has contrast.
    expect(gold.map((r) => r.instanceId)).toEqual(rollouts.map((r) => r.instanceId));
    expect(gold.some((r, index) => r.resolved !== rollouts[index]?.resolved)).toBe(true);
  });

  it("adds nothing when run again: runs, steps and benchmark runs are found by their keys", async () => {
    const before = await get<{ items: TRunRow[] }>("/api/v1/runs");
    const again = spawnSync(process.execPath, [tsx, join(root, "apps/cli/src/main.ts"), "demo", "--json"], {
      cwd: root,
      env: { ...process.env, RAAS_URL: url, RAAS_DATA_DIR: dir },
      encoding: "utf8",
      timeout: 300_000,
    });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/run demo-math .* is already complete/);
    expect(again.stderr).toMatch(/benchmark run demo-swe-simulator-rollouts is already stored/);
    const summary = JSON.parse(again.stdout) as { runs: Record<string, string> };
    const after = await get<{ items: TRunRow[] }>("/api/v1/runs");
    expect(after.items).toEqual(before.items);
    expect(Object.values(summary.runs).sort()).toEqual(
      before.items
        .filter((run) => run.runKey?.startsWith("demo-"))
        .map((run) => run.id)
        .sort(),
    );
  }, 300_000);
});
