// Training runs, steps and groups through the running server's REST routes, SSE stream and tRPC
// subscription, with the diagnostic `sleep` handler: tasks always solved, never solved and solved
// half the time, groups of 4, the DAPO zero-variance policy.
import type { TGroup, TGroupResult, TJob, TPolicyState, TRun, TStep } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";
import { readEvents } from "./support/sse-client";

const TOKENS = { admin: "steps-admin-token", trainer: "steps-trainer-token", viewer: "steps-viewer-token" };

type Token = keyof typeof TOKENS | null;

const sleepTask = (taskId: string, successRate: number, runMs = 40) => ({
  taskId,
  kind: "sleep",
  payload: { initMs: 10, runMs, evalMs: 10, successRate },
});

/** Two tasks always solved, two never, ten solved half the time (each group informative with p = 7/8). */
const MIXED_TASKS = [
  sleepTask("always-1", 1),
  sleepTask("never-1", 0),
  sleepTask("always-2", 1),
  sleepTask("never-2", 0),
  ...Array.from({ length: 10 }, (_, i) => sleepTask(`mixed-${i + 1}`, 0.5)),
];

describe("training runs and steps over HTTP (sleep handler, zero-variance)", () => {
  let running: RunningServer;

  const call = async <T = Record<string, unknown>>(
    path: string,
    options: { body?: unknown; token?: Token } = {},
  ): Promise<{ status: number; body: T; headers: Headers }> => {
    const token = options.token === undefined ? "trainer" : options.token;
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${TOKENS[token]}`;
    if (options.body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(`${running.url}${path}`, {
      method: options.body === undefined ? "GET" : "POST",
      headers,
      ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
    });
    return { status: response.status, body: (await response.json()) as T, headers: response.headers };
  };
  const ok = async <T>(path: string, body?: unknown): Promise<T> => {
    const answer = await call<T>(path, body === undefined ? {} : { body });
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    return answer.body;
  };
  const createRun = async (name: string) =>
    (await ok<{ run: TRun }>("/api/v1/runs", { name, model: "sleep", config: { lr: 1e-6 } })).run;

  /** Reads a step's groups with `steps.next` until done. */
  const pollUntilDone = async (stepId: string) => {
    const groups: TGroupResult[] = [];
    let afterSeq = 0;
    for (;;) {
      const next = await ok<{ step: TStep; groups: TGroupResult[]; done: boolean }>(
        `/api/v1/steps/${stepId}/next?afterSeq=${afterSeq}&limit=2&timeoutMs=20000`,
      );
      groups.push(...next.groups);
      afterSeq = next.groups.at(-1)?.seq ?? afterSeq;
      if (next.done) return { groups, step: next.step };
    }
  };

  beforeAll(async () => {
    running = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      auth: { adminToken: TOKENS.admin, trainerToken: TOKENS.trainer, viewerToken: TOKENS.viewer },
      pools: { init: { concurrency: 32 }, run: { concurrency: 32 }, eval: { concurrency: 32 } },
      subscribers: { maxSubscribers: 16, maxSubscribersPerToken: 2 },
    });
  });
  afterAll(() => running?.close({ graceMs: 0 }));

  describe("a zero-variance step read by long-poll, SSE and the tRPC subscription", () => {
    let run: TRun;
    let step: TStep;
    let polled: TGroupResult[];

    beforeAll(async () => {
      run = await createRun("dapo-sleep");
      const created = await call<{ step: TStep; created: boolean }>("/api/v1/steps", {
        body: {
          runId: run.id,
          stepKey: "step-0",
          tasks: { type: "inline", tasks: MIXED_TASKS },
          groupSize: 4,
          groups: 3,
          dynamicSampling: { policy: "zero-variance" },
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.created).toBe(true);
      const read = await pollUntilDone(created.body.step.id);
      polled = read.groups;
      step = read.step;
    }, 120_000);

    it("hands out exactly the wanted groups, each informative, and completes the step", () => {
      expect(step.status).toBe("completed");
      expect(polled.map((g) => g.seq)).toEqual([1, 2, 3]);
      for (const group of polled) {
        expect(group.decision).toBe("informative");
        expect(group.stepId).toBe(step.id);
        expect(group.runId).toBe(run.id);
        expect(group.taskId).toMatch(/^mixed-/);
        expect(new Set(group.rewards)).toEqual(new Set([0, 1]));
        expect(group.trajectories.map((t) => t.slot)).toEqual([0, 1, 2, 3]);
        expect(group.trajectories.map((t) => t.reward)).toEqual(group.rewards);
        for (const trajectory of group.trajectories) expect(trajectory.trainable).toBe(true);
      }
      expect(new Set(polled.map((g) => g.groupId)).size).toBe(3);
    });

    it("keeps statistics that add up with what was handed out", async () => {
      // Redundant jobs cancelled at the close may still end (and decide a group) after it: read
      // once every job of the step is terminal and the step has taken the last end in.
      let stats = step.stats;
      let groups: TGroup[] = [];
      await expect
        .poll(
          async () => {
            const jobs = await ok<{ items: TJob[] }>(`/api/v1/jobs?batchId=${step.id}&limit=500`);
            ({ stats } = await ok<TStep>(`/api/v1/steps/${step.id}`));
            ({ items: groups } = await ok<{ items: TGroup[] }>(`/api/v1/steps/${step.id}/groups`));
            const isSettled = jobs.items.every((job) =>
              ["completed", "failed", "cancelled"].includes(job.status),
            );
            const hasAll = groups.every((g) => g.members.every((m) => m.status !== "running"));
            return (
              isSettled &&
              hasAll &&
              groups.filter((g) => g.decision !== "undecided").length === stats.groupsDecided
            );
          },
          { timeout: 30_000, interval: 200 },
        )
        .toBe(true);
      const rewards = polled.flatMap((g) => g.rewards as number[]);
      expect(stats.groupsDelivered).toBe(3);
      expect(stats.trajectories).toBe(12);
      expect(stats.informative).toBeGreaterThanOrEqual(3);
      expect(stats.groupsDecided).toBe(stats.informative + stats.uninformative + stats.failedGroups);
      expect(stats.groupsStarted).toBeGreaterThanOrEqual(stats.groupsDecided);
      expect(stats.jobsSubmitted).toBeGreaterThanOrEqual(stats.groupsStarted * 4);
      expect(stats.rewardMin).toBe(0);
      expect(stats.rewardMax).toBe(1);
      expect(stats.rewardMean).toBeCloseTo(rewards.reduce((a, b) => a + b, 0) / rewards.length, 2);
      expect(stats.solvedFraction).toBeGreaterThan(0);
      expect(stats.solvedFraction).toBeLessThan(1);
      expect(stats.infraRetries).toBe(0);

      expect(groups.length).toBe(stats.groupsStarted);
      const delivered = groups.filter((g) => g.state === "delivered");
      expect(delivered.map((g) => g.id).sort()).toEqual(polled.map((g) => g.groupId).sort());
      for (const group of groups.filter((g) => g.decision === "uninformative")) {
        expect(group.state).toBe("dropped");
        expect(new Set(group.members.map((m) => m.reward)).size).toBe(1);
      }
      expect(groups.filter((g) => g.decision === "uninformative").length).toBe(stats.uninformative);
    });

    it("lists the run, its steps and the step by id", async () => {
      const listed = await ok<{ items: TRun[] }>("/api/v1/runs?limit=50");
      expect(listed.items.map((r) => r.id)).toContain(run.id);
      const got = await ok<TRun>(`/api/v1/runs/${run.id}`);
      expect(got).toMatchObject({ id: run.id, name: "dapo-sleep", status: "active", stepCount: 1 });
      const steps = await ok<{ items: TStep[] }>(`/api/v1/runs/${run.id}/steps`);
      expect(steps.items.map((s) => [s.id, s.index, s.status])).toEqual([[step.id, 0, "completed"]]);
    });

    it("streams the same groups over SSE (id = seq), then done with the final step; Last-Event-ID resumes", async () => {
      const url = `${running.url}/api/v1/steps/${step.id}/stream?afterSeq=0`;
      const all = await readEvents(url, { headers: { authorization: `Bearer ${TOKENS.viewer}` } });
      expect(all.ended).toBe(true);
      expect(all.events.map((e) => e.event)).toEqual(["group", "group", "group", "done"]);
      const groups = all.events.slice(0, 3).map((e) => JSON.parse(e.data) as TGroupResult);
      expect(groups.map((g) => g.groupId)).toEqual(polled.map((g) => g.groupId));
      expect(all.events.slice(0, 3).map((e) => e.id)).toEqual(["1", "2", "3"]);
      expect((JSON.parse(all.events[3]!.data) as TStep).status).toBe("completed");

      const resumed = await readEvents(`${running.url}/api/v1/steps/${step.id}/stream`, {
        headers: { "last-event-id": "2" },
      });
      expect(resumed.events.map((e) => [e.event, e.id])).toEqual([
        ["group", "3"],
        ["done", null],
      ]);
    });

    it("streams the same groups through the tRPC subscription steps.onGroups", async () => {
      const input = encodeURIComponent(JSON.stringify({ stepId: step.id, afterSeq: 1 }));
      const controller = new AbortController();
      const read = await readEvents(`${running.url}/trpc/steps.onGroups?input=${input}`, {
        signal: controller.signal,
        stop: (events) => events.some((e) => e.data.includes('"type":"done"')),
      });
      controller.abort();
      const messages = read.events.filter((e) => e.event === "message").map((e) => JSON.parse(e.data));
      expect(messages.map((m) => m.type)).toEqual(["group", "group", "done"]);
      expect(messages.slice(0, 2).map((m) => m.group.groupId)).toEqual(polled.slice(1).map((g) => g.groupId));
      const ids = read.events.filter((e) => e.event === "message").map((e) => e.id);
      expect(ids.slice(0, 2)).toEqual(["2", "3"]);
      expect(messages[2].step.status).toBe("completed");
    });

    it("returns the existing run and step for a reused runKey / stepKey (200, created false)", async () => {
      const first = await call<{ run: TRun; created: boolean }>("/api/v1/runs", {
        body: { name: "keyed", runKey: "steps-test-run-key" },
      });
      expect(first.status).toBe(201);
      const again = await call<{ run: TRun; created: boolean }>("/api/v1/runs", {
        body: { name: "keyed", runKey: "steps-test-run-key" },
      });
      expect(again.status).toBe(200);
      expect(again.body).toMatchObject({ created: false, run: { id: first.body.run.id } });

      const same = await call<{ step: TStep; created: boolean }>("/api/v1/steps", {
        body: {
          runId: run.id,
          stepKey: "step-0",
          tasks: { type: "inline", tasks: MIXED_TASKS },
          groupSize: 4,
          groups: 3,
        },
      });
      expect(same.status).toBe(200);
      expect(same.body).toMatchObject({ created: false, step: { id: step.id, status: "completed" } });
      expect((await ok<TRun>(`/api/v1/runs/${run.id}`)).stepCount).toBe(1);
    });
  });

  it("streams groups live over SSE while the step runs, in completion order, then done", async () => {
    const run = await createRun("live-stream");
    const { step } = await ok<{ step: TStep }>("/api/v1/steps", {
      runId: run.id,
      tasks: {
        type: "inline",
        tasks: MIXED_TASKS.map((t) => ({ ...t, payload: { ...t.payload, runMs: 300 } })),
      },
      groupSize: 4,
      groups: 2,
    });
    const read = await readEvents(`${running.url}/api/v1/steps/${step.id}/stream`, {
      headers: { authorization: `Bearer ${TOKENS.viewer}` },
    });
    expect(read.ended).toBe(true);
    expect(read.events.map((e) => [e.event, e.id])).toEqual([
      ["group", "1"],
      ["group", "2"],
      ["done", null],
    ]);
    const groups = read.events.slice(0, 2).map((e) => JSON.parse(e.data) as TGroupResult);
    for (const group of groups) expect(new Set(group.rewards)).toEqual(new Set([0, 1]));
    const done = JSON.parse(read.events[2]!.data) as TStep;
    expect(done).toMatchObject({ id: step.id, status: "completed", deliveredSeq: 2 });
    expect(done.stats.groupsDelivered).toBe(2);
  }, 60_000);

  describe("bad input: a readable 4xx and nothing created", () => {
    let run: TRun;
    const stepRequest = (overrides: Record<string, unknown>) => ({
      runId: run.id,
      tasks: { type: "inline", tasks: [sleepTask("t-1", 0.5)] },
      groupSize: 2,
      groups: 1,
      ...overrides,
    });
    const expectNothingCreated = async () => {
      expect((await ok<TRun>(`/api/v1/runs/${run.id}`)).stepCount).toBe(0);
      expect((await ok<{ items: TStep[] }>(`/api/v1/runs/${run.id}/steps`)).items).toEqual([]);
      const jobs = await ok<{ items: TJob[] }>(`/api/v1/jobs?limit=500`);
      expect(jobs.items.filter((job) => job.metadata?.runId === run.id)).toEqual([]);
    };

    beforeAll(async () => {
      run = await createRun("bad-input");
    });

    it.each([
      ["groupSize 0", { groupSize: 0 }, 400, /groupSize/],
      ["an unknown dataset", { tasks: { type: "dataset", dataset: "math" } }, 400, /no dataset "math"/],
      [
        "a payload the handler rejects",
        { tasks: { type: "inline", tasks: [sleepTask("t-1", 2)] } },
        400,
        /successRate/,
      ],
      ["agent overrides on a handler without an agent", { agent: { temperature: 1 } }, 400, /agent/],
      [
        "an unknown kind",
        { tasks: { type: "inline", tasks: [{ taskId: "x", kind: "nope", payload: {} }] } },
        400,
        /nope/,
      ],
    ])("%s", async (_label, overrides, status, message) => {
      const answer = await call<{ error: { code: string; message: string } }>("/api/v1/steps", {
        body: stepRequest(overrides),
      });
      expect(answer.status).toBe(status);
      expect(answer.body.error.message).toMatch(message);
      expect(answer.body.error.message).not.toMatch(/\n\s+at /);
      await expectNothingCreated();
    });

    it("an unknown run is a 404 naming it", async () => {
      const answer = await call<{ error: { code: string; message: string } }>("/api/v1/steps", {
        body: stepRequest({ runId: "run_does_not_exist" }),
      });
      expect(answer.status).toBe(404);
      expect(answer.body.error).toMatchObject({ code: "NOT_FOUND" });
      expect(answer.body.error.message).toContain("run_does_not_exist");
      for (const path of ["/api/v1/runs/run_nope", "/api/v1/steps/stp_nope", "/api/v1/steps/stp_nope/next"])
        expect((await call(path)).status).toBe(404);
      expect((await call("/api/v1/steps/stp_nope/stream")).status).toBe(404);
    });

    it("long-poll bounds are checked: timeoutMs above 60 000 and limit 0 are 400", async () => {
      const first = await call(`/api/v1/steps/stp_x/next?timeoutMs=60001`);
      expect(first.status).toBe(400);
      const second = await call(`/api/v1/steps/stp_x/next?limit=0`);
      expect(second.status).toBe(400);
    });

    it("a viewer token cannot create runs or steps or change the policy (403); no token is 401", async () => {
      for (const [path, body] of [
        ["/api/v1/runs", { name: "viewer-run" }],
        ["/api/v1/steps", stepRequest({})],
        ["/api/v1/policy/pause", { mode: "wait" }],
        ["/api/v1/policy/weight-version", { weightVersion: 1 }],
      ] as const) {
        const denied = await call<{ error: { code: string } }>(path, { body, token: "viewer" });
        expect(denied.status).toBe(403);
        expect(denied.body.error.code).toBe("FORBIDDEN");
        expect((await call(path, { body, token: null })).status).toBe(401);
      }
      expect((await call("/api/v1/runs", { token: "viewer" })).status).toBe(200);
      await expectNothingCreated();
      const runs = await ok<{ items: TRun[] }>("/api/v1/runs");
      expect(runs.items.map((r) => r.name)).not.toContain("viewer-run");
    });
  });

  describe("cancel, subscriber caps and finish", () => {
    let run: TRun;
    let step: TStep;

    beforeAll(async () => {
      run = await createRun("cancelled");
      step = (
        await ok<{ step: TStep }>("/api/v1/steps", {
          runId: run.id,
          tasks: {
            type: "inline",
            tasks: [sleepTask("slow-1", 0.5, 120_000), sleepTask("slow-2", 0.5, 120_000)],
          },
          groupSize: 2,
          groups: 2,
        })
      ).step;
    });

    it("caps live step streams per token (503 with retry-after) and frees the slot when one closes", async () => {
      const url = `${running.url}/api/v1/steps/${step.id}/stream`;
      const headers = { authorization: `Bearer ${TOKENS.viewer}` };
      const controllers = [new AbortController(), new AbortController()];
      const opened = controllers.map((controller) =>
        readEvents(url, { headers, signal: controller.signal, stop: () => false }),
      );
      // Each admitted stream holds its slot; wait until both are counted.
      await expect.poll(liveStreams, { timeout: 20_000 }).toBe(2);
      const refused = await fetch(url, { headers });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("5");
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/limit of 2/);
      controllers[0]!.abort();
      await opened[0];
      await expect.poll(liveStreams, { timeout: 20_000 }).toBe(1);
      controllers[1]!.abort();
      await opened[1];
    });

    it("cancels a running step: its jobs are cancelled, long-polls end with done", async () => {
      const cancelled = await ok<TStep>(`/api/v1/steps/${step.id}/cancel`, {});
      expect(cancelled.status).toBe("cancelled");
      const next = await ok<{ done: boolean; groups: unknown[] }>(
        `/api/v1/steps/${step.id}/next?timeoutMs=0`,
      );
      expect(next).toMatchObject({ done: true, groups: [] });
      await expect
        .poll(
          async () => {
            const jobs = await ok<{ items: TJob[] }>(`/api/v1/jobs?batchId=${step.id}&limit=100`);
            return jobs.items.length > 0 && jobs.items.every((job) => job.status === "cancelled");
          },
          { timeout: 30_000, interval: 200 },
        )
        .toBe(true);
    });

    it("finishes the run; a finished run takes no new step (409)", async () => {
      const finished = await ok<TRun>(`/api/v1/runs/${run.id}/finish`, {});
      expect(finished.status).toBe("finished");
      const refused = await call<{ error: { code: string; message: string } }>("/api/v1/steps", {
        body: {
          runId: run.id,
          tasks: { type: "inline", tasks: [sleepTask("t", 1)] },
          groupSize: 1,
          groups: 1,
        },
      });
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toMatch(/finished/);
    });

    /** Open live subscriptions, as the server's metrics report them. */
    async function liveStreams(): Promise<number> {
      const text = await fetch(`${running.url}/metrics`, {
        headers: { authorization: `Bearer ${TOKENS.viewer}` },
      }).then((r) => r.text());
      return Number(/^raas_live_subscriptions (\d+)/m.exec(text)?.[1] ?? Number.NaN);
    }
  });

  describe("policy weight version and pause", () => {
    it("round-trips set, pause and resume; a lower version is a 409 and changes nothing", async () => {
      expect(await ok<TPolicyState>("/api/v1/policy")).toMatchObject({
        policyId: "default",
        weightVersion: null,
        isPaused: false,
        pauseMode: null,
        pausedAtMs: null,
      });
      expect(
        (await ok<TPolicyState>("/api/v1/policy/weight-version", { weightVersion: 3 })).weightVersion,
      ).toBe(3);
      const paused = await ok<TPolicyState>("/api/v1/policy/pause", { mode: "abort-and-continue" });
      expect(paused).toMatchObject({ weightVersion: 3, isPaused: true, pauseMode: "abort-and-continue" });
      expect(paused.pausedAtMs).toEqual(expect.any(Number));
      expect(await ok<TPolicyState>("/api/v1/policy")).toEqual(paused);

      const lower = await call<{ error: { code: string; message: string } }>("/api/v1/policy/resume", {
        body: { weightVersion: 2 },
      });
      expect(lower.status).toBe(409);
      expect(lower.body.error.code).toBe("CONFLICT");
      expect(lower.body.error.message).toMatch(/older than the current 3/);
      expect(await ok<TPolicyState>("/api/v1/policy")).toEqual(paused);

      const resumed = await ok<TPolicyState>("/api/v1/policy/resume", { weightVersion: 4 });
      expect(resumed).toMatchObject({ weightVersion: 4, isPaused: false, pauseMode: null, pausedAtMs: null });
      const older = await call("/api/v1/policy/weight-version", { body: { weightVersion: 1 } });
      expect(older.status).toBe(409);
      const badMode = await call("/api/v1/policy/pause", { body: { mode: "later" } });
      expect(badMode.status).toBe(400);
      expect((await ok<TPolicyState>("/api/v1/policy")).weightVersion).toBe(4);
    });

    it("lists no dataset when no agent handler is registered", async () => {
      expect(await ok("/api/v1/datasets")).toEqual({ items: [] });
    });
  });
});
