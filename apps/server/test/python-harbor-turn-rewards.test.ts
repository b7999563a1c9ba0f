// A training step over the shipped Harbor log-report task through the Python trainer client, on
// the running server (embedded, and distributed: API server on PostgreSQL + Redis and a worker
// process) with bubblewrap sandboxes and the in-process simulator (the labelled test
// double) scripted per task: the verifier's per-step reward reaches the client typed, on the turn
// it names and that turn's token span, and the scalar reward stays the trajectory's.
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
const TRAINER = "harbor-turn-rewards-trainer";
const LABEL = "last turn that touched report.json";

const bash = (command: string) => ({ toolCalls: [{ name: "bash", arguments: { command } }] });
const submit = { toolCalls: [{ name: "submit", arguments: {} }] };

interface Line {
  task: string;
  reward: number | null;
  turnCount: number;
  turnSpans: Record<string, [number, number]>;
  turnRewards: Array<Record<string, unknown>>;
  placedAt: number[];
}

describe.each<RolloutMode>(["embedded", "distributed"])(
  "per-step rewards through the Python client (%s)",
  (mode) => {
    let server: RolloutDeployment;
    let simulator: RunningSimulator;
    let tmp = "";
    let lines: Line[] = [];

    beforeAll(async () => {
      requirePython(10);
      const loaded = (await loadHarborDataset(EXAMPLES)).find((t) => t.task.name.endsWith("/log-report"));
      if (!loaded) throw new Error("the Harbor examples have no log-report");
      const oracle = harborOracleScript(loaded.task) ?? "";
      const code = `import subprocess\nsubprocess.run(["bash", "-c", ${JSON.stringify(oracle)}], cwd="/workspace", stdin=subprocess.DEVNULL)\nprint("ran")`;
      const policy: TPolicyConfigInput = {
        kind: "scripted",
        tasks: {
          "lr-oracle": {
            steps: [
              bash("ls /workspace/logs"),
              { toolCalls: [{ name: "python", arguments: { code } }] },
              submit,
            ],
          },
          "lr-partial": {
            steps: [bash(`echo '{"requests": 7, "bytes": 4800}' > /workspace/report.json`), submit],
          },
          "lr-none": { steps: [submit] },
        },
      };
      simulator = await startSimulator({ policy, seed: 3 });
      server = await startRolloutDeployment(
        mode,
        { RAAS_BACKENDS: `vllm=${simulator.url}#Qwen/Qwen3-8B` },
        TRAINER,
      );
      tmp = mkdtempSync(join(tmpdir(), "raas-harbor-py-"));
      const tasks = ["lr-oracle", "lr-partial", "lr-none"].map((id) => ({
        id,
        kind: "harbor",
        payload: harborJobRequest(loaded, { taskId: id }).payload,
      }));
      writeFileSync(join(tmp, "tasks.json"), JSON.stringify(tasks));
      const run = await runPython([SCRIPT, join(tmp, "tasks.json")], {
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

    const byTask = (task: string) => lines.find((line) => line.task === task) as Line;

    it("hands the verifier's turn reward to the client on the turn it names and that turn's span", () => {
      expect(lines.map((line) => line.task).sort()).toEqual(["lr-none", "lr-oracle", "lr-partial"]);
      const oracle = byTask("lr-oracle");
      expect([oracle.reward, oracle.turnCount]).toEqual([1, 3]);
      const [start, end] = oracle.turnSpans["1"] ?? [0, 0];
      expect(end).toBeGreaterThan(start);
      expect(oracle.turnRewards).toEqual([
        { turn: 1, reward: 1, source: "verifier", label: LABEL, tool_call_index: null, start, end },
      ]);
      expect(oracle.placedAt).toEqual([end - 1]);
    });

    it("keeps the scalar reward the trajectory's: a partial report scores 0 with a 0.5 step reward", () => {
      const partial = byTask("lr-partial");
      expect(partial.reward).toBe(0);
      expect(partial.turnRewards).toMatchObject([{ turn: 0, reward: 0.5, source: "verifier" }]);
      const none = byTask("lr-none");
      expect([none.reward, none.turnRewards, none.placedAt]).toEqual([0, [], []]);
    });
  },
);
