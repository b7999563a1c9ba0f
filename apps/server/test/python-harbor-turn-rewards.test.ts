// A two-step training run over the five shipped Harbor examples through the Python trainer
// client, on the running server (embedded, and distributed: API server on PostgreSQL + Redis and a
// worker process) with bubblewrap sandboxes and the in-process simulator (the labelled test
// double) scripted per task: each task is solved by its oracle solve.sh in one step and not in the
// other (a no-op, a wrong attempt, a partial report). Each scalar reward is what the task's own
// verifier gives; log-report's per-step reward reaches the client typed, on the turn it names and
// that turn's token span, in both steps; the second step follows the first in the same run.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { harborJobRequest, harborOracleScript, loadHarborDataset } from "@raas/handlers";
import { type RunningSimulator, startSimulator, type TPolicyConfigInput } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requirePython, runPython } from "./support/python-process";
import { type RolloutDeployment, type RolloutMode, startRolloutDeployment } from "./support/rollout-modes";

const EXAMPLES = fileURLToPath(new URL("../../../environments/harbor-examples/", import.meta.url));
const SCRIPT = fileURLToPath(new URL("./python/harbor_turn_rewards.py", import.meta.url));
const TRAINER = "harbor-training-run-trainer";
const LABEL = "last turn that touched report.json";

type ScriptStep = { toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> };
const bash = (command: string): ScriptStep => ({ toolCalls: [{ name: "bash", arguments: { command } }] });
const submit: ScriptStep = { toolCalls: [{ name: "submit", arguments: {} }] };
/** Runs a task's oracle solve.sh (paths mapped to the sandbox) from the agent's python tool. */
const runOracle = (script: string): ScriptStep => ({
  toolCalls: [
    {
      name: "python",
      arguments: {
        code: `import subprocess\nsubprocess.run(["bash", "-c", ${JSON.stringify(script)}], cwd="/workspace", stdin=subprocess.DEVNULL)\nprint("ran")`,
      },
    },
  ],
});

/** What the agent does with a task in a step, and the reward its verifier gives for that. */
type Attempt = "oracle" | "none" | "wrong" | "partial";
const REWARD_OF: Record<Attempt, number> = { oracle: 1, none: 0, wrong: 0, partial: 0 };
/** Step by step, what the agent does with each example (short names; `raas-examples/<name>`). */
const PLAN: Array<Record<string, Attempt>> = [
  {
    "fix-shell-script": "oracle",
    "serve-config": "none",
    "recover-csv": "wrong",
    "log-report": "partial",
    "fix-python-stats": "none",
  },
  {
    "fix-shell-script": "none",
    "serve-config": "oracle",
    "recover-csv": "oracle",
    "log-report": "oracle",
    "fix-python-stats": "oracle",
  },
];
const taskIdOf = (name: string, step: number) => `${name}.s${step}`;

/** The script of one attempt. log-report's oracle looks around first, so its report is turn 1. */
function scriptOf(name: string, attempt: Attempt, oracle: string): { steps: ScriptStep[] } {
  switch (attempt) {
    case "oracle":
      return name === "log-report"
        ? { steps: [bash("ls /workspace/logs"), runOracle(oracle), submit] }
        : { steps: [runOracle(oracle), submit] };
    case "none":
      return { steps: [submit] };
    case "wrong":
      // recover-csv: the damaged export copied as it is.
      return {
        steps: [
          bash("mkdir -p /workspace/clean && cp /workspace/export/orders.csv /workspace/clean/"),
          submit,
        ],
      };
    case "partial":
      // log-report: two of four fields right; the scalar stays 0, the step reward 0.5.
      return { steps: [bash(`echo '{"requests": 7, "bytes": 4800}' > /workspace/report.json`), submit] };
  }
}

interface TrajectoryLine {
  type: "trajectory";
  step: number;
  stepId: string;
  runId: string;
  task: string;
  reward: number | null;
  turnCount: number;
  turnSpans: Record<string, [number, number]>;
  turnRewards: Array<Record<string, unknown>>;
  placedAt: number[];
}
interface StepLine {
  type: "step";
  step: number;
  id: string;
  runId: string;
  index: number;
  status: string;
  groupsDelivered: number;
  rewardMean: number | null;
  clientRewards: Array<number | null>;
  createdAtMs: number;
  closedAtMs: number | null;
}
interface RunLine {
  type: "run";
  id: string;
  stepCount: number;
  steps: Array<[string, number]>;
}
type Line = TrajectoryLine | StepLine | RunLine;

describe.each<RolloutMode>(["embedded", "distributed"])(
  "a training run over the Harbor examples through the Python client (%s)",
  (mode) => {
    let server: RolloutDeployment;
    let simulator: RunningSimulator;
    let tmp = "";
    let lines: Line[] = [];

    beforeAll(async () => {
      requirePython(10);
      const examples = new Map(
        (await loadHarborDataset(EXAMPLES)).map((loaded) => [
          loaded.task.name.split("/").at(-1) ?? "",
          loaded,
        ]),
      );
      const tasks: Record<string, { steps: ScriptStep[] }> = {};
      const plan = PLAN.map((attempts, step) =>
        Object.entries(attempts).map(([name, attempt]) => {
          const loaded = examples.get(name);
          if (!loaded) throw new Error(`the Harbor examples have no ${name}`);
          const id = taskIdOf(name, step);
          tasks[id] = scriptOf(name, attempt, harborOracleScript(loaded.task) ?? "");
          return { id, kind: "harbor", payload: harborJobRequest(loaded, { taskId: id }).payload };
        }),
      );
      simulator = await startSimulator({
        policy: { kind: "scripted", tasks } as TPolicyConfigInput,
        seed: 3,
      });
      server = await startRolloutDeployment(
        mode,
        { RAAS_BACKENDS: `vllm=${simulator.url}#Qwen/Qwen3-8B` },
        TRAINER,
      );
      tmp = mkdtempSync(join(tmpdir(), "raas-harbor-py-"));
      writeFileSync(join(tmp, "plan.json"), JSON.stringify({ steps: plan }));
      const run = await runPython([SCRIPT, join(tmp, "plan.json")], {
        RAAS_URL: server.url,
        RAAS_TOKEN: TRAINER,
      });
      expect(run.status, run.stderr).toBe(0);
      lines = run.stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Line);
    }, 600_000);

    afterAll(async () => {
      await server?.close();
      await simulator?.close();
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });

    const trajectories = () => lines.filter((line): line is TrajectoryLine => line.type === "trajectory");
    const stepLines = () => lines.filter((line): line is StepLine => line.type === "step");
    const byTask = (name: string, step: number) =>
      trajectories().find((line) => line.task === taskIdOf(name, step)) as TrajectoryLine;

    it("covers every example in each step, each scalar reward the one its verifier gives", () => {
      const expected = PLAN.flatMap((attempts, step) =>
        Object.entries(attempts).map(([name, attempt]) => [step, taskIdOf(name, step), REWARD_OF[attempt]]),
      );
      const got = trajectories().map((line) => [line.step, line.task, line.reward]);
      expect(got.sort()).toEqual(expected.sort());
      // Each example is solved in one step and not in the other.
      for (const name of Object.keys(PLAN[0] ?? {}))
        expect([byTask(name, 0).reward, byTask(name, 1).reward].sort()).toEqual([0, 1]);
    });

    it("hands log-report's per-step reward to the client on the turn it names and its span, in both steps", () => {
      const partial = byTask("log-report", 0);
      const [pStart, pEnd] = partial.turnSpans["0"] ?? [0, 0];
      expect(pEnd).toBeGreaterThan(pStart);
      expect(partial.turnRewards).toEqual([
        {
          turn: 0,
          reward: 0.5,
          source: "verifier",
          label: LABEL,
          tool_call_index: null,
          start: pStart,
          end: pEnd,
        },
      ]);
      expect(partial.placedAt).toEqual([pEnd - 1]);

      const solved = byTask("log-report", 1);
      expect([solved.reward, solved.turnCount]).toEqual([1, 3]);
      const [start, end] = solved.turnSpans["1"] ?? [0, 0];
      expect(end).toBeGreaterThan(start);
      expect(solved.turnRewards).toEqual([
        { turn: 1, reward: 1, source: "verifier", label: LABEL, tool_call_index: null, start, end },
      ]);
      expect(solved.placedAt).toEqual([end - 1]);
    });

    it("keeps per-step rewards where a verifier gives them: the other examples carry none", () => {
      const others = trajectories().filter((line) => !line.task.startsWith("log-report."));
      expect(others).toHaveLength(8);
      for (const line of others)
        expect([line.task, line.turnRewards, line.placedAt]).toEqual([line.task, [], []]);
    });

    it("runs the second step after the first in the same run, each reported with its mean", () => {
      const [first, second] = stepLines();
      const run = lines.find((line): line is RunLine => line.type === "run");
      expect(stepLines()).toHaveLength(2);
      expect([first?.index, second?.index]).toEqual([0, 1]);
      expect(new Set([first?.runId, second?.runId, run?.id]).size).toBe(1);
      expect(trajectories().every((line) => line.runId === run?.id)).toBe(true);
      expect(trajectories().filter((line) => line.stepId === second?.id)).toHaveLength(5);
      expect([first?.status, second?.status]).toEqual(["completed", "completed"]);
      expect([first?.groupsDelivered, second?.groupsDelivered]).toEqual([5, 5]);
      // Step 0: fix-shell-script only; step 1: all but fix-shell-script.
      expect([first?.rewardMean, second?.rewardMean]).toEqual([0.2, 0.8]);
      expect(first?.clientRewards.filter((reward) => reward === 1)).toHaveLength(1);
      // The client took every group of the first step before it asked for the second.
      expect(second?.createdAtMs).toBeGreaterThanOrEqual(first?.closedAtMs ?? Number.POSITIVE_INFINITY);
      expect(run?.stepCount).toBe(2);
      expect([...(run?.steps ?? [])].sort((a, b) => a[1] - b[1])).toEqual([
        [first?.id, 0],
        [second?.id, 1],
      ]);
    });
  },
);
