// The shipped Harbor examples through the harbor handler's three stages on real bubblewrap
// sandboxes: each task's oracle (its solution/solve.sh, played by a scripted policy) earns reward
// 1 and a policy that does nothing earns 0.
import type { TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  harborJobRequest,
  type LoadedHarborTask,
  loadHarborDataset,
} from "../../src/harbor/harbor-task-loader";
import {
  bash,
  HARBOR_EXAMPLES_DIR,
  type HarborEngine,
  oracleTurns,
  startHarborEngine,
} from "./support/harbor-engine";

/** What the agent's sandbox of fix-python-stats holds: its files, environment and memory bound. */
const STATS_PROBE =
  'ulimit -v; echo "PYTHONPATH=$PYTHONPATH"; find /workspace -type f | sort; ls /tests /solution 2>&1 | head -2';
/** fix-shell-script's workspace and the mode its script kept. */
const SHELL_PROBE = "stat -c '%A %n' /workspace/top_words.sh /workspace/sample.txt";

describe("the Harbor examples, oracle and no-op", () => {
  let harbor: HarborEngine;
  let tasks: LoadedHarborTask[] = [];
  const finished = new Map<string, TJob>();
  const outputs = new Map<string, string>();

  beforeAll(async () => {
    harbor = await startHarborEngine();
    tasks = await loadHarborDataset(HARBOR_EXAMPLES_DIR);
    const submissions = tasks.flatMap((loaded) => {
      const name = loaded.task.name.split("/").at(-1) ?? loaded.task.name;
      harbor.script(`${name}-oracle`, oracleTurns(loaded.task));
      harbor.script(`${name}-noop`, []);
      return ["oracle", "noop"].map((variant) => harborJobRequest(loaded, { taskId: `${name}-${variant}` }));
    });
    const probe = (name: string) =>
      tasks.find((loaded) => loaded.task.name.endsWith(`/${name}`)) as LoadedHarborTask;
    harbor.script("stats-probe", [[bash(STATS_PROBE)]]);
    harbor.script("shell-probe", [[bash(SHELL_PROBE)]]);
    submissions.push(
      harborJobRequest(probe("fix-python-stats"), { taskId: "stats-probe" }),
      harborJobRequest(probe("fix-shell-script"), { taskId: "shell-probe" }),
    );
    for (const [taskId, job] of await harbor.runJobs(submissions)) {
      finished.set(taskId, job);
      outputs.set(taskId, await harbor.toolOutputs(job.id));
    }
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
      [...finished]
        .filter(([taskId]) => !taskId.endsWith("-probe"))
        .map(([taskId, job]) => [taskId, [job.status, job.reward, job.failure?.message ?? null]]),
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

  it("gives the agent the Dockerfile's copies, ENV and executable bits, the memory bound, no tests", () => {
    expect(outputs.get("stats-probe")).toBe(
      [
        "1048576",
        "PYTHONPATH=/workspace",
        "/workspace/stats/__init__.py",
        "/workspace/stats/summary.py",
        "ls: cannot access '/tests': No such file or directory",
        "ls: cannot access '/solution': No such file or directory",
        "",
      ].join("\n"),
    );
    expect(outputs.get("shell-probe")).toBe(
      "-rwxr-xr-x /workspace/top_words.sh\n-rw-r--r-- /workspace/sample.txt\n",
    );
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
      image: null,
      workdir: "/app",
      ignored: [],
      notEnforced: ["cpus = 1", "storage_mb = 512"],
    });
  });
});
