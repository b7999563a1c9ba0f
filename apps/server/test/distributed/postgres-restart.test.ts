import { isTerminalStatus, type TJob } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { useCluster } from "./support/cluster";
import { submitSleepJobs, until } from "./support/deployment";
import { errorLogLines } from "./support/error-log-lines";
import { mathBackendEnv, mathTasks } from "./support/math-tasks";
import { descendantsOf, isRunning } from "./support/process-tree";
import type { SpawnedWorker } from "./support/worker-processes";

const MATH_TASKS = mathTasks();

interface WorkerHealth {
  pools: Record<string, { active: number }>;
  conditions: Record<string, { ok: boolean; reason: string | null }>;
}

async function health(worker: SpawnedWorker): Promise<WorkerHealth> {
  return (await fetch(`${worker.httpUrl}/health`)).json() as Promise<WorkerHealth>;
}

const bwrapBelow = (pid: number) => descendantsOf(pid).filter((p) => p.comm === "bwrap" && isRunning(p.pid));

// PostgreSQL stopped with `pg_ctl -m immediate` (every connection cut, like a crash) for 10 s
// while two workers hold INIT and RUN work — agent jobs in real bubblewrap sandboxes among them —
// and started again on the same port. Every process rides it out: no worker exits or is marked
// lost, every acknowledged job finishes as it would have without the outage, once, and no
// sandbox process is left behind.
describe("a PostgreSQL restart under load", () => {
  // The user's defaults (fair share on). Workers beat `alive` on the bus too, so a stored
  // heartbeat stalled behind the post-outage backlog does not get them marked lost.
  const cluster = useCluster({ simulator: { seed: 7, overheadMs: 1_500 }, privatePostgres: true });

  it("is ridden out by every process; every job finishes once, as without it", async () => {
    const { deployment, server, workers } = cluster;
    const env = mathBackendEnv(cluster.simulator);
    const spawned = await workers.start(2, "init=6,run=12,eval=3", env);
    // Agent jobs hold a sandbox from INIT through EVAL; slow sleep jobs keep INIT slots busy.
    const mathJobs = [...MATH_TASKS, ...MATH_TASKS].map((payload) => ({ kind: "math", payload }));
    const { results } = await server.rest<{ results: Array<{ job: TJob }> }>("/api/v1/jobs/batch", {
      jobs: mathJobs,
    });
    const mathIds = results.map((result) => result.job.id);
    const sleepIds = await submitSleepJobs(server, 60, { initMs: 2_500, runMs: 3_000, evalMs: 200 });
    const ids = [...mathIds, ...sleepIds];

    // Both workers hold INIT and RUN work, and sandboxes, when the database goes away.
    await until(
      async () => {
        const reports = await Promise.all(spawned.map(health));
        return reports.every(
          (report) => (report.pools.init?.active ?? 0) > 0 && (report.pools.run?.active ?? 0) > 0,
        );
      },
      "both workers busy in INIT and RUN",
      120_000,
    );
    expect(spawned.some((worker) => bwrapBelow(worker.pid).length > 0)).toBe(true);
    const postgres = deployment.postgres!;
    // While it is down, each worker says so in /health (an outage is no reason to stop work).
    const reportedOutage = new Set<string>();
    let watching = true;
    const watch = (async () => {
      while (watching) {
        for (const worker of spawned) {
          const report = await health(worker).catch(() => null);
          if (report?.conditions.store?.ok === false) reportedOutage.add(worker.id);
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    await postgres.restart({ mode: "immediate", downMs: 10_000 });
    watching = false;
    await watch;

    await until(
      async () => (await deployment.storedJobs(ids)).every((job) => isTerminalStatus(job.status)),
      "every job in a final state",
      300_000,
    ).catch(async (error: unknown) => {
      const open = (await deployment.storedJobs(ids)).filter((job) => !isTerminalStatus(job.status));
      const logs = [server.proc.lines.join("\n"), ...spawned.map((worker) => worker.output())]
        .join("\n")
        .split("\n")
        .filter((line) => /"level":(40|50|60)/.test(line))
        .slice(-60);
      const healths = await Promise.all(spawned.map((worker) => health(worker).catch(() => null)));
      throw new Error(
        `${String(error)}: ${open.length} open; workers' pools ${JSON.stringify(healths.map((h) => h?.pools))}, e.g. ${JSON.stringify(open.slice(0, 5).map((job) => [job.id, job.status, job.stage]))}\n${logs.join("\n")}`,
      );
    });
    for (const worker of spawned) {
      expect(isRunning(worker.pid), worker.output().slice(-4_000)).toBe(true);
      expect(worker.output()).not.toMatch(/Unhandled 'error' event/);
    }
    expect(server.proc.isRunning).toBe(true);
    const { workers: listed } = await server.rest<{ workers: Array<{ id: string; status: string }> }>(
      "/api/v1/workers",
    );
    for (const worker of spawned)
      expect(listed.find((entry) => entry.id === worker.id)?.status, worker.id).toBe("active");
    expect([...reportedOutage].sort()).toEqual(spawned.map((worker) => worker.id).sort());
    // After the outage each worker's store condition is ok again.
    await until(
      async () =>
        (await Promise.all(spawned.map(health))).every((report) => report.conditions.store?.ok === true),
      "both workers reporting the store back",
      30_000,
    );

    // Every job completed, as it does without an outage (the scripted policy answers each task
    // the same way, so the two jobs of one task earn the same reward).
    const jobs = await deployment.storedJobs(ids);
    expect(
      jobs.filter((job) => job.status !== "completed").map((job) => [job.id, job.status, job.failure]),
    ).toEqual([]);
    const rewardByTask = new Map<string, number | null>();
    for (const [index, id] of mathIds.entries()) {
      const job = jobs.find((candidate) => candidate.id === id)!;
      const task = MATH_TASKS[index % MATH_TASKS.length]!.taskId;
      if (!rewardByTask.has(task)) rewardByTask.set(task, job.reward ?? null);
      else expect(job.reward ?? null, task).toBe(rewardByTask.get(task));
    }
    const { ledger } = deployment;
    await until(() => ids.every((id) => ledger.terminalEvents(id).length > 0), "every terminal event");
    for (const id of ids) expect(ledger.terminalEvents(id), id).toHaveLength(1);
    await until(
      () => spawned.every((worker) => bwrapBelow(worker.pid).length === 0),
      "no sandbox process left on either worker",
      30_000,
    );
    // Ridden out, the outage was a warning in every process, never an error.
    expect(errorLogLines(server, spawned)).toEqual([]);
  }, 600_000);
});
