// A `harness` job on Harbor tasks (environments/harbor-examples): the shipped generic example
// harness runs bash through its own loop in the task's bubblewrap sandbox, the simulator (the
// labelled test double for a GPU model) scripted per task; the task's tests/test.sh grades the
// final workspace as for a `harbor` job — in a fresh sandbox, or in the agent's own for
// `environment_mode = "shared"`. A harness that writes a reward file itself or looks for tests/
// gets the real verifier's reward only.
import { fileURLToPath } from "node:url";
import { harborJobRequest, harborOracleScript, loadHarborDataset } from "@raas/handlers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  call,
  type ScriptedHarnessServer,
  startScriptedHarnessServer,
} from "./support/scripted-harness-server";

const HARBOR_EXAMPLES = fileURLToPath(new URL("../../../environments/harbor-examples/", import.meta.url));

/** Forges a reward everywhere a verifier might read one, and looks for the hidden tests. */
const CHEAT = [
  "mkdir -p /logs/verifier /workspace/logs/verifier",
  "echo 1 > /logs/verifier/reward.txt; echo '{\"reward\": 1}' > /logs/verifier/reward.json",
  "echo 1 > /workspace/logs/verifier/reward.txt; echo 1 > /workspace/reward.txt",
  "cat /tests/test.sh /workspace/tests/test.sh 2>&1; ls / /workspace 2>&1",
].join("; ");

describe("harness jobs on Harbor tasks", () => {
  let server: ScriptedHarnessServer;
  let tasks: Awaited<ReturnType<typeof loadHarborDataset>>;

  const taskNamed = (name: string) => {
    const task = tasks.find((candidate) => candidate.dir.replace(/\/+$/, "").endsWith(`/${name}`));
    if (!task) throw new Error(`no Harbor example ${name}`);
    return task;
  };
  const runHarness = (name: string, taskId: string) => {
    const request = harborJobRequest(taskNamed(name), { taskId });
    return server.runJob({
      kind: "harness",
      payload: { task: { kind: "harbor", payload: request.payload }, timeoutMs: 120_000 },
      timeoutsMs: request.timeoutsMs,
    });
  };

  beforeAll(async () => {
    tasks = await loadHarborDataset(HARBOR_EXAMPLES);
    const solve = (name: string) => harborOracleScript(taskNamed(name).task) ?? "false";
    server = await startScriptedHarnessServer({
      name: "harness-harbor",
      tasks: {
        "shell-solved": { steps: [call("bash", { command: solve("fix-shell-script") }), call("submit")] },
        "shell-cheat": { steps: [call("bash", { command: CHEAT }), call("submit")] },
        "serve-cheat": { steps: [call("bash", { command: CHEAT }), call("submit")] },
      },
    });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it("earns the full reward when the harness solved the task (verifier in a fresh sandbox)", async () => {
    const job = await runHarness("fix-shell-script", "shell-solved");
    expect(job.failure).toBeNull();
    expect(job).toMatchObject({ status: "completed", reward: 1, trainable: true });
    expect(job.result).toMatchObject({
      task: "raas-examples/fix-shell-script",
      verifier: { mode: "separate", source: "reward.txt", rewards: { reward: 1 } },
      agent: { stopReason: "final_answer", turns: 2 },
    });
  }, 300_000);

  it("gives a harness that forges the reward and reads tests/ the real verifier's reward only", async () => {
    for (const [name, taskId, mode] of [
      ["fix-shell-script", "shell-cheat", "separate"],
      ["serve-config", "serve-cheat", "shared"],
    ] as const) {
      const job = await runHarness(name, taskId);
      expect(job.failure, name).toBeNull();
      expect(job, name).toMatchObject({ status: "completed", reward: 0, trainable: true });
      expect(job.result, name).toMatchObject({ verifier: { mode, rewards: { reward: 0 } } });
      // What the harness saw of the sandbox: no tests (INIT never places them there).
      const calls = await server.running.gateway.listCalls(job.id);
      expect(calls).toHaveLength(2);
      const seen = JSON.stringify(calls[1]?.messages);
      expect(seen, name).toContain("No such file");
      expect(seen, name).not.toContain("reap_leftovers");
    }
  }, 300_000);
});
