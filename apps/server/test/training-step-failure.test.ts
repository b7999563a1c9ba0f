// A step whose every job fails for infrastructure reasons, through the running server: the trainer
// sees it end `failed` with the reason (REST long-poll, step read, SSE, tRPC subscription) instead
// of waiting for ever, no job of it is left running, and the run goes on with its next step.
import type { TGroupResult, TJob, TRun, TStep } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";
import { readEvents } from "./support/sse-client";

const TRAINER = "step-failure-trainer";

/** A `sleep` task whose INIT always fails as a sandbox that could not start. */
const brokenTask = (taskId: string) => ({
  taskId,
  kind: "sleep",
  payload: { initMs: 5, runMs: 5, evalMs: 5, fail: { init: { rate: 1, kind: "sandbox" } } },
});

describe("a step whose every job fails, as the trainer sees it over HTTP", () => {
  let running: RunningServer;
  let run: TRun;
  let step: TStep;
  let polled: { status: number; body: { step: TStep; groups: TGroupResult[]; done: boolean } };

  const call = async <T>(path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const headers: Record<string, string> = { authorization: `Bearer ${TRAINER}` };
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(`${running.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers,
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as T };
  };

  beforeAll(async () => {
    running = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      auth: { trainerToken: TRAINER },
    });
    run = (await call<{ run: TRun }>("/api/v1/runs", { name: "broken-sandboxes" })).body.run;
    const created = await call<{ step: TStep }>("/api/v1/steps", {
      runId: run.id,
      tasks: { type: "inline", tasks: Array.from({ length: 50 }, (_, i) => brokenTask(`broken-${i}`)) },
      groupSize: 2,
      groups: 2,
      maxInfraRetries: 1,
      maxJobFailures: 5,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    step = created.body.step;
    for (;;) {
      polled = await call(`/api/v1/steps/${step.id}/next?afterSeq=0&timeoutMs=20000`);
      if (polled.status !== 200 || polled.body.done) break;
    }
  }, 120_000);
  afterAll(() => running?.close({ graceMs: 0 }));

  it("answers the long-poll 200 with done and the failed step's reason", () => {
    expect(polled.status, JSON.stringify(polled.body)).toBe(200);
    expect(polled.body.groups).toEqual([]);
    expect(polled.body.step.status).toBe("failed");
    expect(polled.body.step.failure).toMatchObject({
      reason: "failure-budget",
      jobsFailed: 6,
      budget: 5,
      commonestCause: "sandbox/init",
      commonestCauseJobs: 6,
    });
    expect(polled.body.step.failure?.message).toMatch(/6 jobs failed .* past its budget of 5/);
  });

  it("shows the same on the step, the SSE stream and the tRPC subscription", async () => {
    const read = await call<TStep>(`/api/v1/steps/${step.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ status: "failed", failure: { jobsFailed: 6, budget: 5 } });
    expect(read.body.stats.jobFailures.jobs).toBe(6);

    const sse = await readEvents(`${running.url}/api/v1/steps/${step.id}/stream`, {
      headers: { authorization: `Bearer ${TRAINER}` },
    });
    expect(sse.ended).toBe(true);
    expect(sse.events.map((e) => e.event)).toEqual(["done"]);
    expect(JSON.parse(sse.events[0]?.data ?? "{}")).toMatchObject({
      status: "failed",
      failure: { budget: 5 },
    });

    const input = encodeURIComponent(JSON.stringify({ stepId: step.id, afterSeq: 0 }));
    const controller = new AbortController();
    const trpc = await readEvents(`${running.url}/trpc/steps.onGroups?input=${input}`, {
      headers: { authorization: `Bearer ${TRAINER}` },
      signal: controller.signal,
      stop: (events) => events.some((e) => e.data.includes('"type":"done"')),
    });
    controller.abort();
    const done = trpc.events.map((e) => JSON.parse(e.data)).find((m) => m?.type === "done");
    expect(done?.step).toMatchObject({ status: "failed", failure: { reason: "failure-budget" } });
  });

  it("leaves no job of the step running, and scores none", async () => {
    const deadline = Date.now() + 20_000;
    let jobs: TJob[] = [];
    do {
      jobs = (await call<{ items: TJob[] }>(`/api/v1/jobs?batchId=${step.id}&limit=500`)).body.items;
      if (jobs.every((j) => j.status === "failed" || j.status === "cancelled")) break;
      await new Promise((r) => setTimeout(r, 50));
    } while (Date.now() < deadline);
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) {
      expect(["failed", "cancelled"]).toContain(job.status);
      expect(job.reward).toBeNull();
    }
  });

  it("refuses a bad budget with a 400 and lets the run's next step complete", async () => {
    const bad = await call<{ error: { code: string; message: string } }>("/api/v1/steps", {
      runId: run.id,
      tasks: { type: "inline", tasks: [brokenTask("x")] },
      groupSize: 1,
      groups: 1,
      maxJobFailures: -1,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("maxJobFailures");
    const good = await call<{ step: TStep }>("/api/v1/steps", {
      runId: run.id,
      tasks: {
        type: "inline",
        tasks: [{ taskId: "ok", kind: "sleep", payload: { initMs: 5, runMs: 5, evalMs: 5 } }],
      },
      groupSize: 2,
      groups: 1,
      dynamicSampling: { policy: "none" },
    });
    expect(good.status).toBe(201);
    const next = await call<{ step: TStep; groups: TGroupResult[] }>(
      `/api/v1/steps/${good.body.step.id}/next?afterSeq=0&timeoutMs=20000`,
    );
    expect(next.body.groups).toHaveLength(1);
  });
});
