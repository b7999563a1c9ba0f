// Adaptive task sampling through the running server: steps.create with `taskSampling`, and
// GET /api/v1/runs/{runId}/curriculum for the dashboard (tasks active/retired, pass-rate histogram
// per closed step). The diagnostic `sleep` handler: tasks always solved, never solved, half.
import type { TCurriculumStats, TRun, TStep } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";

const TOKENS = { admin: "cur-admin-token", trainer: "cur-trainer-token", viewer: "cur-viewer-token" };

const sleepTask = (taskId: string, successRate: number) => ({
  taskId,
  kind: "sleep",
  payload: { initMs: 1, runMs: 5, evalMs: 1, successRate },
});
const TASKS = [
  sleepTask("always-1", 1),
  sleepTask("always-2", 1),
  sleepTask("never-1", 0),
  sleepTask("half-1", 0.5),
  sleepTask("half-2", 0.5),
];

describe("adaptive task sampling over HTTP", () => {
  let running: RunningServer;
  const call = async <T>(path: string, body?: unknown, token = TOKENS.trainer) => {
    const response = await fetch(`${running.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { "content-type": "application/json" }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as T };
  };

  beforeAll(async () => {
    running = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      auth: { adminToken: TOKENS.admin, trainerToken: TOKENS.trainer, viewerToken: TOKENS.viewer },
      pools: { init: { concurrency: 16 }, run: { concurrency: 16 }, eval: { concurrency: 16 } },
    });
  });
  afterAll(() => running?.close({ graceMs: 0 }));

  it("runs adaptive steps and reports tasks active/retired and a histogram per closed step", async () => {
    const { body: created } = await call<{ run: TRun }>("/api/v1/runs", { name: "curriculum-http" });
    const runId = created.run.id;
    const stepIds: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const { status, body } = await call<{ step: TStep }>("/api/v1/steps", {
        runId,
        tasks: { type: "inline", tasks: TASKS },
        groupSize: 4,
        groups: 1,
        taskSampling: { policy: "adaptive", windowSize: 8, retireAfterSolvedInARow: 4, reprobeEvery: 1_000 },
        dynamicSampling: { policy: "none" },
      });
      expect(status, JSON.stringify(body)).toBe(201);
      stepIds.push(body.step.id);
      for (;;) {
        const next = await call<{ done: boolean }>(
          `/api/v1/steps/${body.step.id}/next?afterSeq=0&timeoutMs=20000`,
        );
        if (next.body.done) break;
      }
    }
    // The last close's snapshot lands right after the step's status changes.
    let stats: TCurriculumStats | null = null;
    for (let tries = 0; tries < 200; tries += 1) {
      const { status, body } = await call<TCurriculumStats>(
        `/api/v1/runs/${runId}/curriculum`,
        undefined,
        TOKENS.viewer,
      );
      expect(status).toBe(200);
      stats = body;
      if (body.snapshots.length === stepIds.length) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(stats?.snapshots.map((s) => s.stepId)).toEqual(stepIds);
    expect(stats?.sampling).toMatchObject({
      policy: "adaptive",
      targetPassRate: 0.5,
      retireAfterSolvedInARow: 4,
    });
    expect(stats?.binEdges).toHaveLength(11);
    const current = stats?.current;
    expect(current?.total).toBe(5);
    expect((current?.unexplored ?? 0) + (current?.active ?? 0) + (current?.retired ?? 0)).toBe(5);
    // Each step's group ran 4 samples: 6 steps' worth spread over the tried tasks.
    const tried = (current?.histogram ?? []).reduce((sum, n) => sum + n, 0);
    expect(tried).toBe(5 - (current?.unexplored ?? 0));
    // A never-solved task is never retired.
    expect(current?.retired ?? 0).toBeLessThanOrEqual(tried - (current?.neverSolved ?? 0));
    expect(stats?.snapshots.at(-1)?.histogram).toEqual(current?.histogram);
  });

  it("is a 404 for an unknown run and a 400 naming the field for a bad policy", async () => {
    const missing = await call<{ error: { code: string; message: string } }>(
      "/api/v1/runs/run_nope/curriculum",
    );
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatchObject({ code: "NOT_FOUND" });
    const { body: created } = await call<{ run: TRun }>("/api/v1/runs", { name: "bad-policy" });
    const bad = await call<{ error: { code: string; message: string } }>("/api/v1/steps", {
      runId: created.run.id,
      tasks: { type: "inline", tasks: TASKS },
      groupSize: 2,
      groups: 1,
      taskSampling: { policy: "adaptive", windowSize: 0 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("windowSize");
    expect(bad.body.error.message).not.toMatch(/\n\s+at /);
  });
});
