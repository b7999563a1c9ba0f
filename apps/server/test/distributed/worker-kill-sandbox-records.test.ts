import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isTerminalStatus, type TJob } from "@raas/shared";
import { afterAll, describe, expect, it } from "vitest";
import { useCluster } from "./support/cluster";
import { until } from "./support/deployment";
import { mathBackendEnv, mathTasks } from "./support/math-tasks";
import type { SpawnedWorker } from "./support/worker-processes";

interface Summary {
  live: number;
  byState: Record<string, number>;
  byCloseReason: Record<string, number>;
}

/** The sandbox directories in `baseDirs` whose owner file names `hostId`. */
function sandboxDirsOf(baseDirs: readonly string[], hostId: string): string[] {
  return baseDirs.flatMap((baseDir) => dirsIn(baseDir, hostId));
}

function dirsIn(baseDir: string, hostId: string): string[] {
  return readdirSync(baseDir)
    .filter((name) => name.startsWith("sbx-"))
    .filter((name) => {
      try {
        const owner = JSON.parse(readFileSync(join(baseDir, name, "owner.json"), "utf8")) as {
          hostId?: string;
        };
        return owner.hostId === hostId;
      } catch {
        return false;
      }
    })
    .map((name) => join(baseDir, name));
}

// kill -9 of a worker while its sandboxes are starting and running (real bubblewrap; every
// simulator turn takes 2 s): once the server marks it lost, the summary counts none of its
// sandboxes as live, its records are closed as worker_lost, and its sandbox directories are
// removed — by the worker sharing its base directory, or, when its base directory was its own,
// by the server from what its records name. The surviving worker's sandboxes are untouched: every
// job completes.
describe.each([
  ["shared with the other worker", true],
  ["of its own", false],
])(
  "sandbox records and directories of a worker killed with sandboxes open, its base directory %s",
  (_name, isShared) => {
    const baseDirs = [
      mkdtempSync(join(tmpdir(), "raas-kill-sandboxes-")),
      mkdtempSync(join(tmpdir(), "raas-kill-sandboxes-")),
    ];
    // Registered first, so it runs after the cluster's teardown has stopped every worker.
    afterAll(() => {
      for (const baseDir of baseDirs) rmSync(baseDir, { recursive: true, force: true });
    });
    const cluster = useCluster({ simulator: { seed: 11, overheadMs: 2_000 } });

    it("closes its records and removes its directories once it is marked lost", async () => {
      const { deployment, server, workers } = cluster;
      const env = mathBackendEnv(cluster.simulator);
      if (isShared) await workers.start(2, "init=2,run=2,eval=2", { ...env, RAAS_SANDBOX_DIR: baseDirs[0]! });
      else {
        await workers.start(1, "init=2,run=2,eval=2", { ...env, RAAS_SANDBOX_DIR: baseDirs[0]! });
        await workers.start(1, "init=2,run=2,eval=2", { ...env, RAAS_SANDBOX_DIR: baseDirs[1]! });
      }
      const jobs = mathTasks()
        .slice(0, 8)
        .map((payload) => ({ kind: "math", payload }));
      const { results } = await server.rest<{ results: Array<{ job: TJob }> }>("/api/v1/jobs/batch", {
        jobs,
      });
      const ids = results.map((result) => result.job.id);
      const summaryOf = (hostId: string) =>
        server.rest<Summary>(`/api/v1/sandboxes/summary?hostId=${encodeURIComponent(hostId)}`);

      // A worker with sandboxes open, stored as such, and their directories in the shared base.
      let victim: SpawnedWorker | undefined;
      await until(
        async () => {
          for (const worker of workers.started) {
            if ((await summaryOf(worker.id)).live >= 2 && sandboxDirsOf(baseDirs, worker.id).length >= 2) {
              victim = worker;
              return true;
            }
          }
          return false;
        },
        "a worker with two live sandboxes",
        120_000,
      );
      const killed = victim!;
      const survivor = workers.started.find((worker) => worker !== killed)!;
      await killed.kill();
      const victimDirs = sandboxDirsOf(baseDirs, killed.id);
      expect(victimDirs.length).toBeGreaterThanOrEqual(2);
      // The kill alone neither closes records nor removes anything.
      expect((await summaryOf(killed.id)).live).toBeGreaterThanOrEqual(2);

      await until(
        async () =>
          (
            await server.rest<{ workers: Array<{ id: string; status: string }> }>("/api/v1/workers")
          ).workers.some((worker) => worker.id === killed.id && worker.status === "lost"),
        "the server to mark the killed worker lost",
        60_000,
      );
      await until(
        async () => (await summaryOf(killed.id)).live === 0,
        "no live sandbox of the lost worker",
        30_000,
      );
      const summary = await summaryOf(killed.id);
      expect(summary.byCloseReason.worker_lost).toBeGreaterThanOrEqual(2);
      expect(Object.keys(summary.byState).sort()).not.toContain("ready");
      const { events } = await server.rest<{
        events: Array<{ sandboxId: string; detail: { reason?: string } }>;
      }>(`/api/v1/sandboxes/events?hostId=${encodeURIComponent(killed.id)}&type=closed&limit=100`);
      const closedByRecovery = events.filter((event) => event.detail.reason === "worker_lost");
      expect(closedByRecovery.length).toBe(summary.byCloseReason.worker_lost);
      for (const { sandboxId } of closedByRecovery) {
        const { sandbox } = await server.rest<{ sandbox: { state: string; closeReason: string } }>(
          `/api/v1/sandboxes/${encodeURIComponent(sandboxId)}`,
        );
        expect(sandbox).toMatchObject({ state: "failed", closeReason: "worker_lost" });
      }

      await until(
        () => victimDirs.every((dir) => !existsSync(dir)),
        "the lost worker's sandbox directories to be removed",
        30_000,
      );
      expect(sandboxDirsOf(baseDirs, killed.id)).toEqual([]);

      // Its jobs start again on the survivor, whose sandboxes nothing touched: every job completes.
      let unfinished = "";
      await until(
        async () => {
          const open = (await deployment.storedJobs(ids)).filter((job) => !isTerminalStatus(job.status));
          // Named in the time-out message, so a stuck job says where it stuck.
          unfinished = open
            .map((job) => `${job.id} ${job.status}(${job.stage}) attempt ${job.attempts}`)
            .join(", ");
          return open.length === 0;
        },
        () => `every job in a final state (killed ${killed.id}; still open: ${unfinished})`,
        300_000,
      );
      expect((await deployment.storedJobs(ids)).map((job) => job.status)).toEqual(ids.map(() => "completed"));
      expect((await summaryOf(survivor.id)).byCloseReason.worker_lost).toBeUndefined();
    }, 480_000);
  },
);
