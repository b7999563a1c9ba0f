// `raas env verify` and `raas env register` on the judge-rubric example: without --judge-backend
// the check stops at once (exit 2, saying what to pass); with the simulator playing the judge model
// (labelled test double: `judge` policy, scores scripted per oracle job) the reference answers are
// graded against the environment's pass threshold and the empty answers must score none; a copy
// whose pass_score is the top of the scale fails the task its judge gave 9/10; registration
// through a real server stores kind `judge` and its task count, and a check by name is stored.
import type { ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningSimulator, startSimulator } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, runCli } from "./support/run-cli";
import { REPO_ROOT, startServer } from "./support/start-server";

const ADMIN = "cli-env-judge-admin-token";
const JUDGE_RUBRIC = join(REPO_ROOT, "environments/judge-rubric");
// The example's rows with a `reference` answer, in order: the oracle check's jobs are
// `raas-oracle-check-<index>-oracle|noop` over them, and the judge's prompt names that task id.
const WITH_REFERENCE = ["explain-tcp-handshake", "review-sql-injection"];
let server: ChildProcess;
let url: string;
let dir: string;
let judgeSim: RunningSimulator;

function raas(args: string[]): Promise<CliRun> {
  return runCli(args, {
    cwd: dir,
    env: { RAAS_URL: url, RAAS_TOKEN: ADMIN, RAAS_DATA_DIR: join(dir, ".raas") },
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "raas-cli-env-judge-"));
  judgeSim = await startSimulator({
    modelName: "sim-judge",
    latency: { prefillMsPerToken: 0, decodeMsPerToken: 0 },
    policy: {
      kind: "judge",
      tasks: {
        "raas-oracle-check-0-oracle": { score: 9, reasoning: "Names SYN, SYN-ACK and ACK in order." },
        "raas-oracle-check-1-oracle": { score: 10, reasoning: "Names the risk and the fix." },
        "raas-oracle-check-0-noop": { score: 0, reasoning: "The response is empty." },
        "raas-oracle-check-1-noop": { score: 0, reasoning: "The response is empty." },
      },
    },
  });
  ({ server, url } = await startServer(dir, { RAAS_STORE: "memory", RAAS_ADMIN_TOKEN: ADMIN }));
}, 180_000);

afterAll(async () => {
  server?.kill("SIGTERM");
  await judgeSim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("raas env verify on a judge environment", () => {
  it("stops at once without --judge-backend: exit 2, saying what to pass", async () => {
    const run = await raas(["env", "verify", JUDGE_RUBRIC]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(
      /^error: judge-rubric is a judge environment: .*pass --judge-backend <url> \(an OpenAI-compatible server/,
    );
    expect(run.stderr).not.toContain("verifying [");
  }, 120_000);

  it("grades the reference answers with the judge: pass at the threshold, no-op none, exit 0", async () => {
    // No `#model`: the CLI reads the judge's model from its /v1/models.
    const before = judgeSim.snapshot().requestsSucceeded;
    const run = await raas(["env", "verify", JUDGE_RUBRIC, "--judge-backend", judgeSim.url, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({
      environment: "judge-rubric",
      kind: "judge",
      passed: 2,
      failed: 0,
      skipped: 3,
    });
    const rows = new Map((report.rows as Array<{ task: string }>).map((row) => [row.task, row] as const));
    expect(rows.get("explain-tcp-handshake")).toMatchObject({
      oracleReward: 0.9,
      noopReward: 0,
      verdict: "pass",
    });
    expect(rows.get("review-sql-injection")).toMatchObject({
      oracleReward: 1,
      noopReward: 0,
      verdict: "pass",
    });
    expect(rows.get("haiku-autumn-debugging")).toMatchObject({
      verdict: "skipped",
      reasons: ["no reference answer (`reference` in its dataset row)"],
    });
    // Every oracle and no-op answer went to the judge: two calls per task with a reference.
    expect(judgeSim.snapshot().requestsSucceeded - before).toBe(2 * WITH_REFERENCE.length);
  }, 600_000);

  it("holds the oracle to the manifest's pass_score: 9/10 fails where 10 is asked, exit 1", async () => {
    const strict = join(dir, "judge-strict");
    cpSync(JUDGE_RUBRIC, strict, { recursive: true });
    const manifest = readFileSync(join(strict, "environment.toml"), "utf8");
    writeFileSync(
      join(strict, "environment.toml"),
      manifest
        .replace('name = "judge-rubric"', 'name = "judge-strict"')
        .replace("score_max = 10\n", "score_max = 10\npass_score = 10\n"),
    );
    const run = await raas(["env", "verify", strict, "--judge-backend", `${judgeSim.url}#sim-judge`]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/explain-tcp-handshake\s+0\.9\s+0\s+fail/);
    expect(run.stdout).toMatch(/review-sql-injection\s+1\s+0\s+pass/);
    expect(run.stdout).toContain("FAIL explain-tcp-handshake: oracle: reward 0.9, expected 1");
    expect(run.stdout).toMatch(/judge-strict \(judge\): 1 passed, 1 failed, 3 skipped in \d+\.\d s$/m);
  }, 600_000);

  it("names a --judge-backend that is no URL, exit 1", async () => {
    const run = await raas(["env", "verify", JUDGE_RUBRIC, "--judge-backend", "judge:8000"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^error: --judge-backend judge:8000: expected an http\(s\) URL/);
  }, 120_000);
});

describe("raas env register | list | verify <name> on a judge environment", () => {
  it("registers judge-rubric as kind judge with its 5 tasks and stores a check by name", async () => {
    const registered = await raas(["env", "register", JUDGE_RUBRIC, "--kind", "judge"]);
    expect(registered.code, registered.stderr).toBe(0);
    expect(registered.stdout).toBe(`registered judge-rubric: judge, 5 tasks, ${JUDGE_RUBRIC}\n`);
    const listed = await raas(["env", "list"]);
    expect(listed.stdout).toMatch(/judge-rubric\s+judge\s+5\s+-\s+-\s+\S+/);

    const verified = await raas(["env", "verify", "judge-rubric", "--judge-backend", judgeSim.url]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toContain("judge-rubric (judge): 2 passed, 0 failed, 3 skipped");
    expect(verified.stderr).toContain("stored with environment judge-rubric");
    const shown = await raas(["env", "show", "judge-rubric", "--json"]);
    const { environment } = JSON.parse(shown.stdout);
    expect(environment).toMatchObject({ kind: "judge", taskCount: 5, oracle: { passed: 2, skipped: 3 } });
  }, 600_000);
});
