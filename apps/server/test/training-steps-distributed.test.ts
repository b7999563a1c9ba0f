// A training step in distributed mode: the API-only server (no pools) runs the batch system over
// PostgreSQL and the Redis bus, a worker process runs the jobs. The step's groups are decided from
// the job events the worker publishes; samples carry the policy version set through the server.
import type { TGroup, TGroupResult, TRun, TStep } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RolloutDeployment, startRolloutDeployment } from "./support/rollout-modes";

const TRAINER = "steps-distributed-trainer";

describe("training steps with an API-only server and a worker process", () => {
  let deployment: RolloutDeployment;

  const call = async <T>(path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${deployment.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${TRAINER}`, "content-type": "application/json" },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const parsed = (await response.json()) as T;
    expect(response.status, JSON.stringify(parsed)).toBeLessThan(300);
    return parsed;
  };

  beforeAll(async () => {
    deployment = await startRolloutDeployment("distributed", {}, TRAINER);
  }, 180_000);
  afterAll(async () => {
    await deployment?.close();
  });

  it("decides and hands out informative groups from the worker's job events", async () => {
    await call("/api/v1/policy/weight-version", { weightVersion: 11 });
    const { run } = await call<{ run: TRun }>("/api/v1/runs", { name: "distributed-dapo" });
    const task = (taskId: string, successRate: number) => ({
      taskId,
      kind: "sleep",
      payload: { initMs: 10, runMs: 50, evalMs: 10, successRate },
    });
    const { step } = await call<{ step: TStep }>("/api/v1/steps", {
      runId: run.id,
      tasks: {
        type: "inline",
        tasks: [
          task("always", 1),
          task("never", 0),
          ...Array.from({ length: 8 }, (_, i) => task(`mixed-${i}`, 0.5)),
        ],
      },
      groupSize: 4,
      groups: 2,
      dynamicSampling: { policy: "zero-variance" },
    });
    const delivered: TGroupResult[] = [];
    let final: TStep = step;
    for (let afterSeq = 0; ; ) {
      const next = await call<{ step: TStep; groups: TGroupResult[]; done: boolean }>(
        `/api/v1/steps/${step.id}/next?afterSeq=${afterSeq}&timeoutMs=20000`,
      );
      delivered.push(...next.groups);
      afterSeq = next.groups.at(-1)?.seq ?? afterSeq;
      final = next.step;
      if (next.done) break;
    }
    expect(final.status).toBe("completed");
    expect(delivered.map((g) => g.seq)).toEqual([1, 2]);
    for (const group of delivered) {
      expect(group.decision).toBe("informative");
      expect(new Set(group.rewards)).toEqual(new Set([0, 1]));
      expect(group.trajectories.map((t) => t.dispatchVersion)).toEqual([11, 11, 11, 11]);
    }
    const { items } = await call<{ items: TGroup[] }>(`/api/v1/steps/${step.id}/groups`);
    expect(
      items
        .filter((g) => g.state === "delivered")
        .map((g) => g.id)
        .sort(),
    ).toEqual(delivered.map((g) => g.groupId).sort());
  }, 120_000);
});
