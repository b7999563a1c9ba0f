import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useCluster } from "./support/cluster";
import { until } from "./support/deployment";
import { mathBackendEnv, mathTasks } from "./support/math-tasks";
import type { SpawnedWorker } from "./support/worker-processes";

const MATH_TASKS = mathTasks();

interface WorkerView {
  id: string;
  status: string;
  isHealthy: boolean;
  unhealthyReason: string | null;
  pools: { init?: { concurrency: number } };
}

/**
 * A sandbox base directory no sandbox can start in. As root: a small tmpfs filled to the last
 * byte (a full sandbox disk, as an operator meets it); otherwise a directory this user cannot
 * write to. `dispose` unmounts and removes it.
 */
function brokenBaseDir(): { dir: string; dispose: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "raas-full-base-"));
  if (process.getuid?.() !== 0) {
    chmodSync(dir, 0o555);
    return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
  }
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", dir]);
  try {
    writeFileSync(join(dir, "filler"), Buffer.alloc(8 * 1024 ** 2));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  }
  return {
    dir,
    dispose: () => {
      execFileSync("umount", ["-l", dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// Issue 31, part 4: a worker whose sandboxes cannot start (its base directory full) kept taking
// jobs and failed each on its first attempt. Now it marks itself unhealthy after a few failed
// starts (and a failed probe), takes no INIT work, says why in /health, /metrics and
// workers.list, and the jobs it failed are retried on the healthy worker.
describe("a worker whose sandboxes cannot start", () => {
  let broken: { dir: string; dispose: () => void };
  // Registered before the cluster's: the directory is disposed of after every worker stopped.
  beforeAll(() => {
    broken = brokenBaseDir();
  });
  afterAll(() => broken?.dispose());
  const cluster = useCluster({ simulator: { seed: 7, overheadMs: 20 } });

  it("turns unhealthy, takes no more work, and its jobs complete on the healthy worker", async () => {
    const { deployment, server, workers } = cluster;
    const backends = mathBackendEnv(cluster.simulator);
    // Alone at first, so the jobs land on it; it never recovers during the test (probe every 10 min).
    const [sick] = (await workers.start(1, "init=2,run=2,eval=2", {
      ...backends,
      RAAS_SANDBOX_DIR: broken.dir,
      RAAS_WORKER_SANDBOX_FAILURES: "2",
      RAAS_WORKER_SANDBOX_PROBE_MS: "600000",
    })) as [SpawnedWorker];
    const tasks = MATH_TASKS.slice(0, 6).map((payload) => ({ kind: "math", payload }));
    const { results } = await server.rest<{ results: Array<{ job: TJob }> }>("/api/v1/jobs/batch", {
      jobs: tasks,
    });
    const ids = results.map((result) => result.job.id);

    type HealthBody = { healthy: boolean; conditions: Record<string, { reason: string }> };
    let health: { status: number; body: HealthBody } = { status: 0, body: { healthy: true, conditions: {} } };
    await until(
      async () => {
        const response = await fetch(`${sick.httpUrl}/health`);
        health = { status: response.status, body: (await response.json()) as HealthBody };
        return health.status === 503;
      },
      "the sick worker's /health to answer 503",
      60_000,
    );
    expect(health.body.healthy).toBe(false);
    expect(health.body.conditions.sandboxes?.reason).toMatch(
      /sandbox start\(s\) in a row failed.*ENOSPC|EACCES/,
    );
    const metrics = await (await fetch(`${sick.httpUrl}/metrics`)).text();
    expect(metrics).toMatch(/raas_worker_condition_ok\{condition="sandboxes"\} 0/);

    const [healthy] = (await workers.start(1, "init=2,run=2,eval=2", backends)) as [SpawnedWorker];
    await until(
      async () => (await deployment.storedJobs(ids)).every((job) => job.status === "completed"),
      "every job completed",
      240_000,
    );
    const jobs = await deployment.storedJobs(ids);
    expect(jobs.map((job) => job.status)).toEqual(ids.map(() => "completed"));
    // Those the sick worker took failed there at INIT and ran again on the healthy one.
    expect(jobs.some((job) => job.attempts >= 2)).toBe(true);
    const store = await deployment.store();
    for (const id of ids) expect((await store.readJob(id))?.handoff?.workerId).toBe(healthy.id);

    const { workers: listed } = await server.rest<{ workers: WorkerView[] }>("/api/v1/workers");
    const sickView = listed.find((worker) => worker.id === sick.id);
    expect(sickView).toMatchObject({
      status: "active",
      isHealthy: false,
      pools: { init: { concurrency: 0 } },
    });
    expect(sickView?.unhealthyReason).toMatch(/^sandboxes: .*sandbox start\(s\) in a row failed/);
    expect(listed.find((worker) => worker.id === healthy.id)).toMatchObject({
      isHealthy: true,
      unhealthyReason: null,
    });
  }, 360_000);
});
