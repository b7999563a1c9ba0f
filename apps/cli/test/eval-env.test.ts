// `raas eval env` end to end: the real CLI and a real server (child processes, memory store,
// real bubblewrap sandboxes) with the simulator (the labelled test double for a model, in this
// process) scripted per task: it answers two math-verify tasks right and one wrong, and a copy of
// the environment whose verifier crashes on one task makes that task an infrastructure failure.
// The run is stored through `benchmarks.*`: one result per task, resolved = reward >= 1, the
// crash recorded as an error (no reward), never as unresolved with reward 0.
import type { ChildProcess } from "node:child_process";
import { appendFileSync, chmodSync, cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningSimulator, startSimulator } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, runCli } from "./support/run-cli";
import { REPO_ROOT, startServer } from "./support/start-server";

const ADMIN = "cli-eval-env-admin-token";
const MATH = join(REPO_ROOT, "environments/math-verify");
/** The copy registered under this name; its verifier raises on task 02's ground truth (613). */
const NAME = "math-eval-env";
let server: ChildProcess;
let simulator: RunningSimulator;
let url: string;
let dir: string;
let copy: string;

function raas(args: string[]): Promise<CliRun> {
  return runCli(args, {
    cwd: dir,
    env: { RAAS_URL: url, RAAS_TOKEN: ADMIN, RAAS_DATA_DIR: join(dir, ".raas") },
  });
}

async function getJson(path: string) {
  const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${ADMIN}` } });
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  return (await response.json()) as any;
}

const answer = (text: string) => ({
  steps: [{ toolCalls: [{ name: "submit", arguments: { answer: text } }] }],
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "raas-cli-eval-env-"));
  // Sandboxes run as another uid: their base directory's parents must be searchable.
  chmodSync(dir, 0o755);
  copy = join(dir, "math-copy");
  cpSync(MATH, copy, { recursive: true });
  appendFileSync(
    join(copy, "verify.py"),
    [
      "",
      "_compute_score = compute_score",
      "def compute_score(data_source, solution_str, ground_truth, extra_info=None):",
      '    if str(ground_truth) == "613":',
      '        raise RuntimeError("a verifier bug on this row")',
      "    return _compute_score(data_source, solution_str, ground_truth, extra_info)",
      "",
    ].join("\n"),
  );
  simulator = await startSimulator({
    policy: {
      kind: "scripted",
      tasks: {
        "math-verify-00": answer("\\boxed{42}"),
        "math-verify-01": answer("\\boxed{150}"),
        "math-verify-02": answer("\\boxed{613}"),
        "math-verify-03": answer("7/8"),
      },
    },
    latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
  });
  ({ server, url } = await startServer(dir, {
    RAAS_STORE: "memory",
    RAAS_ADMIN_TOKEN: ADMIN,
    RAAS_MODEL: simulator.modelName,
  }));
  const registered = await raas(["env", "register", copy, "--name", NAME]);
  expect(registered.code, registered.stderr).toBe(0);
}, 180_000);

afterAll(async () => {
  server?.kill("SIGTERM");
  await simulator?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("raas eval env", () => {
  it("rolls out a registered environment's tasks and stores one result per task", async () => {
    const args = ["eval", "env", NAME, "--backend", simulator.url, "--limit", "4", "--run-id", "math-env-1"];
    const run = await raas([...args, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const printed = JSON.parse(run.stdout);
    expect(printed).toMatchObject({
      runId: "math-env-1",
      stored: true,
      model: simulator.modelName,
      environment: { name: NAME, kind: "reward-fn" },
      summary: { total: 4, graded: 3, resolved: 2, errors: 1, meanReward: 2 / 3 },
    });

    const { run: stored } = await getJson("/api/v1/benchmarks/math-env-1");
    expect(stored).toMatchObject({
      dataset: NAME,
      status: "completed",
      totalCount: 4,
      resolvedCount: 2,
      rewardCount: 3,
      meanReward: 2 / 3,
      config: {
        backend: simulator.url,
        limit: 4,
        environment: { name: NAME, kind: "reward-fn", path: copy },
      },
    });
    const { items } = await getJson("/api/v1/benchmarks/math-env-1/results?limit=100");
    const byTask = Object.fromEntries(
      items.map((item: { instanceId: string }) => [item.instanceId, item]),
    ) as Record<
      string,
      { resolved: boolean; jobId: string; failToPass: unknown; detail: Record<string, unknown> }
    >;
    expect(Object.keys(byTask)).toEqual([
      "math-verify-00",
      "math-verify-01",
      "math-verify-02",
      "math-verify-03",
    ]);
    for (const task of ["math-verify-00", "math-verify-03"]) {
      expect(byTask[task], task).toMatchObject({ resolved: true, failToPass: null, passToPass: null });
      expect(byTask[task]?.detail).toMatchObject({ reward: 1, jobId: byTask[task]?.jobId, error: null });
    }
    expect(byTask["math-verify-01"]).toMatchObject({ resolved: false, detail: { reward: 0, error: null } });
    // The verifier's crash earned no reward: an error naming the verifier, not reward 0.
    const crashed = byTask["math-verify-02"];
    expect(crashed?.detail.reward).toBeNull();
    expect(crashed?.detail.error).toMatch(/^eval in eval: .*a verifier bug on this row/s);
    const job = await getJson(`/api/v1/jobs/${crashed?.jobId}`);
    expect(job).toMatchObject({ status: "failed", reward: null, failure: { kind: "eval" } });
  }, 600_000);

  it("resumes a run by id, and takes a directory with a table and progress", async () => {
    const resumed = await raas([
      "eval",
      "env",
      NAME,
      "--backend",
      simulator.url,
      "--limit",
      "2",
      "--run-id",
      "math-env-1",
    ]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain("resuming stored run math-env-1");
    expect(resumed.stdout).toMatch(/^task\s+reward\s+result\s+job\s*\n/);
    expect(resumed.stdout).toMatch(/math-verify-00\s+1\s+resolved\s+job_\S+/);
    expect(resumed.stdout).toMatch(/math-verify-01\s+0\s+unresolved\s+job_\S+/);

    const byPath = await raas(["eval", "env", MATH, "--backend", simulator.url, "--limit", "1"]);
    expect(byPath.code, byPath.stderr).toBe(0);
    expect(byPath.stderr).toMatch(/evaluating \[#+\] 1\/1 {2}resolved 1 {2}errors 0/);
    expect(byPath.stdout).toContain(
      "math-verify (reward-fn): resolved 1/1 (100.0 %)  mean reward 1 over 1 graded  errors 0",
    );
    const runId = /stored run: (\S+)/.exec(byPath.stdout)?.[1];
    const { run } = await getJson(`/api/v1/benchmarks/${runId}`);
    expect(run).toMatchObject({
      dataset: "math-verify",
      config: { environment: { kind: "reward-fn", path: MATH } },
    });
  }, 600_000);

  it("names an unknown environment in one line, exit 2, no stack", async () => {
    const run = await raas(["eval", "env", "no-such-env", "--backend", simulator.url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `error: no environment named "no-such-env" and no such directory; registered: ${NAME}\n`,
    );
  }, 120_000);

  it("rolls out on the service's own backends without --backend", async () => {
    // The first test registered the simulator: the service rolls out on it.
    const run = await raas(["eval", "env", NAME, "--limit", "1", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      model: simulator.modelName,
      summary: { total: 1, resolved: 1, errors: 0 },
    });
  }, 120_000);
});
