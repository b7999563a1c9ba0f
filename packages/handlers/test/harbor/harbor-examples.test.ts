// The shipped Harbor examples through the harbor handler's three stages on real bubblewrap
// sandboxes: each task's oracle (its solution/solve.sh, played by a scripted policy) earns reward
// 1 and a policy that does nothing earns 0.
import { fileURLToPath } from "node:url";
import type { TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  harborJobRequest,
  type LoadedHarborTask,
  loadHarborDataset,
} from "../../src/harbor/harbor-task-loader";
import { type HarborEngine, oracleTurns, startHarborEngine } from "./support/harbor-engine";

const EXAMPLES_DIR = fileURLToPath(new URL("../../../../environments/harbor-examples/", import.meta.url));

describe("the Harbor examples, oracle and no-op", () => {
  let harbor: HarborEngine;
  let tasks: LoadedHarborTask[] = [];
  const finished = new Map<string, TJob>();

  beforeAll(async () => {
    harbor = await startHarborEngine();
    tasks = await loadHarborDataset(EXAMPLES_DIR);
    const submissions = tasks.flatMap((loaded) => {
      const name = loaded.task.name.split("/").at(-1) ?? loaded.task.name;
      harbor.script(`${name}-oracle`, oracleTurns(loaded.task));
      harbor.script(`${name}-noop`, []);
      return ["oracle", "noop"].map((variant) => harborJobRequest(loaded, { taskId: `${name}-${variant}` }));
    });
    const submitted = await harbor.engine.submitJobs(submissions);
    const { jobs } = await harbor.engine.waitForJobs(
      submitted.map((s) => s.job.id),
      { timeoutMs: 600_000 },
    );
    for (const job of jobs) finished.set((job.payload as { taskId: string }).taskId, job);
  }, 700_000);

  afterAll(async () => {
    await harbor?.close();
  });

  it("ships five tasks that run on the host image", () => {
    expect(tasks.map((t) => t.task.name)).toEqual([
      "raas-examples/fix-python-stats",
      "raas-examples/fix-shell-script",
      "raas-examples/log-report",
      "raas-examples/recover-csv",
      "raas-examples/serve-config",
    ]);
    expect(tasks.map((t) => t.hostIncompatibility)).toEqual([null, null, null, null, null]);
  });

  it("gives every oracle reward 1 and every no-op reward 0, from the verifier's own run", () => {
    const outcomes = Object.fromEntries(
      [...finished].map(([taskId, job]) => [taskId, [job.status, job.reward, job.failure?.message ?? null]]),
    );
    const expected = Object.fromEntries(
      tasks.flatMap((loaded) => {
        const name = loaded.task.name.split("/").at(-1);
        return [
          [`${name}-oracle`, ["completed", 1, null]],
          [`${name}-noop`, ["completed", 0, null]],
        ];
      }),
    );
    expect(outcomes).toEqual(expected);
    for (const job of finished.values()) expect(job.trainable).toBe(true);
  });

  it("keeps every key of a reward.json, and says where the tests ran", () => {
    const report = finished.get("log-report-oracle")?.result as { verifier: Record<string, unknown> };
    expect(report.verifier).toMatchObject({
      mode: "separate",
      source: "reward.json",
      rewards: { reward: 1, requests: 1, status: 1, top_path: 1, bytes: 1 },
      exitCode: 0,
    });
    const partial = finished.get("log-report-noop")?.result as { verifier: Record<string, unknown> };
    expect(partial.verifier).toMatchObject({
      rewards: { reward: 0, requests: 0, status: 0, top_path: 0, bytes: 0 },
    });
    const served = finished.get("serve-config-oracle")?.result as {
      verifier: Record<string, unknown>;
      environment: Record<string, unknown>;
    };
    expect(served.verifier).toMatchObject({ mode: "shared", source: "reward.txt" });
    expect(served.environment).toEqual({
      baseImage: "python:3.12-slim",
      workdir: "/app",
      ignored: [],
      notEnforced: ["cpus = 1", "storage_mb = 512"],
    });
  });
});
