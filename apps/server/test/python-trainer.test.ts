// A Python trainer written only from /openapi.json (test/python/openapi_trainer.py, standard
// library only) against the real running server: real bubblewrap sandboxes, the simulator (the
// labelled test double for the model) as backend. It submits a batch of math jobs, waits, streams
// the batch's JSON Lines and checks every row; this test asserts its exit status and summary.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requirePython, runPython } from "./support/python-process";
import { type SimulatedServer, scriptedPolicy, startSimulatedServer } from "./support/simulated-server";

const DATA = fileURLToPath(new URL("../../../packages/handlers/data/", import.meta.url));
const TRAINER_SCRIPT = fileURLToPath(new URL("./python/openapi_trainer.py", import.meta.url));
const TRAINER = "python-trainer";
// The scripted policy solves math-001 and answers math-016 wrongly.
const TASK_IDS = ["math-001", "math-016"];

describe("a Python trainer generated from /openapi.json", () => {
  let server: SimulatedServer;
  let scratch: string;

  beforeAll(async () => {
    requirePython();
    server = await startSimulatedServer({ policy: scriptedPolicy(), seed: 11, trainerToken: TRAINER });
    scratch = mkdtempSync(join(tmpdir(), "raas-python-trainer-tasks-"));
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it("submits, waits and exports a batch whose rows are aligned and token-exact", async () => {
    const tasks = readFileSync(join(DATA, "math.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as { taskId: string })
      .filter((task) => TASK_IDS.includes(task.taskId));
    const tasksFile = join(scratch, "tasks.json");
    writeFileSync(tasksFile, JSON.stringify(tasks));

    const run = await runPython([TRAINER_SCRIPT, server.url, tasksFile], { RAAS_TOKEN: TRAINER });
    expect(run.stderr).toBe("");
    expect(run.stdout).not.toContain("FAIL");
    expect(run.status).toBe(0);
    const summary = JSON.parse(run.stdout.trim()) as {
      ok: boolean;
      rows: number;
      sampledTokens: number;
      rewards: number[];
    };
    expect(summary).toMatchObject({ ok: true, rows: 4, rewards: [0, 0, 1, 1] });
    expect(summary.sampledTokens).toBeGreaterThan(0);
  });

  it("reports a refused request as a FAIL line and exit status 1, not a crash", async () => {
    // Without a token the trainer's submit is refused with the document's 401.
    const run = await runPython([TRAINER_SCRIPT, server.url, join(scratch, "tasks.json")], {
      RAAS_TOKEN: "",
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^FAIL: submitJobs: HTTP 401/);
  });
});
