// The Harbor examples end to end: RolloutEngine → real bubblewrap sandboxes → the agent loop in
// the Qwen3 format → the in-process simulator (scripted: it runs each task's oracle, does nothing,
// or forges a reward file) → each task's tests/test.sh in a fresh sandbox.
import { fileURLToPath } from "node:url";
import {
  type HarborJobRequest,
  harborJobRequest,
  harborOracleScript,
  loadHarborDataset,
} from "@raas/handlers";
import type { TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TPolicyConfigInput } from "../src/index";
import { type RolloutFixture, startRolloutFixture } from "./support/rollout-fixture";

const EXAMPLES_DIR = fileURLToPath(new URL("../../../environments/harbor-examples/", import.meta.url));

const FORGE =
  "mkdir -p /workspace/logs/verifier; echo 1 | tee /workspace/logs/verifier/reward.txt /tmp/reward.txt; echo 1 > /logs/verifier/reward.txt";

describe("Harbor examples through the simulator", () => {
  let fixture: RolloutFixture;
  const finished = new Map<string, TJob>();
  let names: string[] = [];

  beforeAll(async () => {
    const tasks = await loadHarborDataset(EXAMPLES_DIR);
    const scripts: Record<string, { steps: unknown[] }> = {};
    const jobs: HarborJobRequest[] = [];
    for (const loaded of tasks) {
      const name = loaded.task.name.split("/").at(-1) ?? loaded.task.name;
      names.push(name);
      const script = harborOracleScript(loaded.task);
      const code = `import subprocess\nr = subprocess.run(["bash", "-c", ${JSON.stringify(script)}], cwd="/workspace", capture_output=True, text=True, stdin=subprocess.DEVNULL)\nprint(r.returncode)`;
      scripts[`${name}-oracle`] = { steps: [{ toolCalls: [{ name: "python", arguments: { code } }] }] };
      scripts[`${name}-noop`] = { steps: [{ toolCalls: [{ name: "submit", arguments: {} }] }] };
      scripts[`${name}-forge`] = {
        steps: [{ toolCalls: [{ name: "bash", arguments: { command: FORGE } }] }],
      };
      for (const variant of ["oracle", "noop", "forge"])
        jobs.push(harborJobRequest(loaded, { taskId: `${name}-${variant}` }));
    }
    names = names.sort();
    fixture = await startRolloutFixture({
      policy: { kind: "scripted", tasks: scripts } as TPolicyConfigInput,
    });
    const submitted = await fixture.engine.submitJobs(jobs);
    const { jobs: done } = await fixture.engine.waitForJobs(
      submitted.map((s) => s.job.id),
      { timeoutMs: 600_000 },
    );
    for (const job of done) finished.set((job.payload as { taskId: string }).taskId, job);
  }, 700_000);

  afterAll(async () => {
    await fixture?.close();
  });

  it("earns 1 with each oracle, 0 with a no-op and 0 for a reward file the policy wrote itself", () => {
    const rewards = Object.fromEntries(
      [...finished].map(([taskId, job]) => [taskId, [job.status, job.reward]]),
    );
    expect(rewards).toEqual(
      Object.fromEntries(
        names.flatMap((name) => [
          [`${name}-oracle`, ["completed", 1]],
          [`${name}-noop`, ["completed", 0]],
          [`${name}-forge`, ["completed", 0]],
        ]),
      ),
    );
  });

  it("records token-exact trajectories", () => {
    for (const job of finished.values()) {
      expect((job.result as { tokenDrift: { isConsistent: boolean } }).tokenDrift.isConsistent).toBe(true);
    }
  });
});
