// Training runs and steps served by the composed server on the embedded PGlite store (the Prisma
// batch store): a step left running when the server stops goes on after a restart and completes;
// the run, the step, its groups and the policy state read back the same afterwards.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TGroupResult, TPolicyState, TRun, TStep } from "@raas/shared";
import { afterAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";

const TOKEN = "steps-pglite-trainer";

describe("training steps on the embedded PGlite store", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "raas-steps-"));
  let running: RunningServer | null = null;
  afterAll(async () => {
    await running?.close({ graceMs: 0 });
    rmSync(dataDir, { recursive: true, force: true });
  });
  const start = () =>
    startServer({
      port: 0,
      logLevel: "silent",
      store: { kind: "db", dataDir },
      auth: { trainerToken: TOKEN },
      agentHandlers: false,
      pools: { init: { concurrency: 16 }, run: { concurrency: 16 }, eval: { concurrency: 16 } },
    });
  const call = async <T>(path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${running!.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const parsed = (await response.json()) as T;
    expect(response.status, JSON.stringify(parsed)).toBeLessThan(300);
    return parsed;
  };
  const readAll = async (stepId: string) => {
    const groups: TGroupResult[] = [];
    for (let afterSeq = 0; ; ) {
      const next = await call<{ step: TStep; groups: TGroupResult[]; done: boolean }>(
        `/api/v1/steps/${stepId}/next?afterSeq=${afterSeq}&timeoutMs=20000`,
      );
      groups.push(...next.groups);
      afterSeq = next.groups.at(-1)?.seq ?? afterSeq;
      if (next.done) return { step: next.step, groups };
    }
  };

  it("resumes a running step after a restart and keeps runs, steps, groups and the policy", async () => {
    running = await start();
    expect(running.storeKind).toBe("pglite");
    const { run } = await call<{ run: TRun }>("/api/v1/runs", { name: "durable", runKey: "durable-1" });
    await call<TPolicyState>("/api/v1/policy/weight-version", { weightVersion: 7 });
    // Runs long enough that the server stops with the step's jobs in flight.
    const task = (taskId: string, successRate: number) => ({
      taskId,
      kind: "sleep",
      payload: { initMs: 10, runMs: 1_500, evalMs: 10, successRate },
    });
    const { step } = await call<{ step: TStep }>("/api/v1/steps", {
      runId: run.id,
      tasks: { type: "inline", tasks: [task("a", 1), task("b", 0), task("c", 1), task("d", 0)] },
      groupSize: 2,
      groups: 3,
      dynamicSampling: { policy: "none" },
    });
    expect(step.status).toBe("running");
    await running.close({ graceMs: 0 });

    running = await start();
    const again = await call<{ run: TRun; created: boolean }>("/api/v1/runs", {
      name: "durable",
      runKey: "durable-1",
    });
    expect(again).toMatchObject({ created: false, run: { id: run.id, stepCount: 1 } });
    expect((await call<TPolicyState>("/api/v1/policy")).weightVersion).toBe(7);
    const { step: finished, groups } = await readAll(step.id);
    expect(finished.status).toBe("completed");
    expect(groups.map((g) => g.seq)).toEqual([1, 2, 3]);
    for (const group of groups) {
      expect(group.trajectories).toHaveLength(2);
      expect(group.trajectories.every((t) => t.dispatchVersion === 7)).toBe(true);
      expect(group.rewards[0]).toBe(group.rewards[1]);
    }
    expect(finished.stats.groupsDelivered).toBe(3);

    // Once more after a clean restart: everything reads back the same.
    await running.close({ graceMs: 0 });
    running = await start();
    expect(await call<TStep>(`/api/v1/steps/${step.id}`)).toEqual(finished);
    const reread = await readAll(step.id);
    expect(reread.groups.map((g) => [g.groupId, g.rewards])).toEqual(
      groups.map((g) => [g.groupId, g.rewards]),
    );
    const steps = await call<{ items: TStep[] }>(`/api/v1/runs/${run.id}/steps`);
    expect(steps.items.map((s) => s.id)).toEqual([step.id]);
  }, 180_000);
});
