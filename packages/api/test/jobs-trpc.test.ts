import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppRouter } from "../src/index";
import { sleepJob, startTestServer, type TestServer, TOKENS, trpcClient } from "./helpers/test-server";

describe("jobs over tRPC against a running server", () => {
  let server: TestServer;
  let trainer: ReturnType<typeof trpcClient>;

  beforeAll(async () => {
    server = await startTestServer();
    trainer = trpcClient(server.url, TOKENS.trainer);
  });
  afterAll(() => server.close());

  it("submits a job, waits for it and reads it back completed with a reward", async () => {
    const { job, created } = await trainer.jobs.submit.mutate(sleepJob({}, { metadata: { run: "t1" } }));
    expect(created).toBe(true);
    expect(job.kind).toBe("sleep");
    expect(["submitted", "queued", "active"]).toContain(job.status);

    const waited = await trainer.jobs.wait.query({ ids: [job.id], timeoutMs: 10_000 });
    expect(waited.done).toBe(true);
    expect(waited.jobs[0]?.status).toBe("completed");

    const fetched = await trainer.jobs.get.query({ id: job.id });
    expect(fetched.status).toBe("completed");
    expect(fetched.reward).toBe(1);
    expect(fetched.trainable).toBe(true);
    expect(fetched.metadata).toEqual({ run: "t1" });
    expect(fetched.timings.runMs).not.toBeNull();
  });

  it("is idempotent by jobKey", async () => {
    const first = await trainer.jobs.submit.mutate(sleepJob({}, { jobKey: "same-key" }));
    const second = await trainer.jobs.submit.mutate(sleepJob({}, { jobKey: "same-key" }));
    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(second.job.id).toBe(first.job.id);
  });

  it("submits many, lists them by batch with cursor pagination", async () => {
    const jobs = Array.from({ length: 5 }, () => sleepJob({}, { batchId: "batch-list" }));
    const { results } = await trainer.jobs.submitMany.mutate({ jobs });
    expect(results).toHaveLength(5);
    const ids = new Set(results.map((r) => r.job.id));

    const page1 = await trainer.jobs.list.query({ batchId: "batch-list", limit: 3 });
    expect(page1.items).toHaveLength(3);
    expect(page1.nextCursor).not.toBeNull();
    const page2 = await trainer.jobs.list.query({
      batchId: "batch-list",
      limit: 3,
      cursor: page1.nextCursor!,
    });
    const listed = [...page1.items, ...page2.items].map((job) => job.id);
    expect(new Set(listed)).toEqual(ids);
  });

  it("rejects a whole submitMany when one job names an unknown handler", async () => {
    const before = (await trainer.jobs.list.query({ batchId: "batch-bad" })).items.length;
    const error = await trainer.jobs.submitMany
      .mutate({ jobs: [sleepJob({}, { batchId: "batch-bad" }), { kind: "nope", batchId: "batch-bad" }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    const clientError = error as TRPCClientError<AppRouter>;
    expect(clientError.data?.code).toBe("UNKNOWN_HANDLER_KIND");
    expect(clientError.data?.httpStatus).toBe(400);
    expect(clientError.message).toContain('"nope"');
    expect((await trainer.jobs.list.query({ batchId: "batch-bad" })).items.length).toBe(before);
  });

  it("cancels a running job, a group and a batch", async () => {
    const long = { initMs: 30_000 };
    const one = await trainer.jobs.submit.mutate(sleepJob(long));
    const group = await trainer.jobs.submitMany.mutate({
      jobs: [sleepJob(long, { groupId: "g-cancel" }), sleepJob(long, { groupId: "g-cancel" })],
    });
    const batch = await trainer.jobs.submitMany.mutate({
      jobs: [sleepJob(long, { batchId: "b-cancel" }), sleepJob(long, { batchId: "b-cancel" })],
    });

    expect((await trainer.jobs.cancel.mutate({ jobId: one.job.id })).cancelled).toEqual([one.job.id]);
    expect((await trainer.jobs.cancel.mutate({ groupId: "g-cancel" })).cancelled.sort()).toEqual(
      group.results.map((r) => r.job.id).sort(),
    );
    expect((await trainer.jobs.cancel.mutate({ batchId: "b-cancel" })).cancelled.sort()).toEqual(
      batch.results.map((r) => r.job.id).sort(),
    );
    const ids = [one.job.id, ...group.results.map((r) => r.job.id), ...batch.results.map((r) => r.job.id)];
    const waited = await trainer.jobs.wait.query({ ids, timeoutMs: 5_000 });
    expect(waited.done).toBe(true);
    expect(waited.jobs.every((job) => job.status === "cancelled")).toBe(true);
  });

  it("wait returns done=false when the timeout comes first", async () => {
    const { job } = await trainer.jobs.submit.mutate(sleepJob({ runMs: 10_000 }));
    // When the wait ends is the engine's waitForJobs, tested on a manual clock
    // (packages/engine/src/lifecycle/wait-for-jobs.test.ts); here: the answer for a job still running.
    const waited = await trainer.jobs.wait.query({ ids: [job.id], timeoutMs: 300 });
    expect(waited.done).toBe(false);
    expect(waited.jobs[0]?.id).toBe(job.id);
    await trainer.jobs.cancel.mutate({ jobId: job.id });
  });

  it("returns an (empty) trajectory for a job and NOT_FOUND for an unknown one", async () => {
    const { job } = await trainer.jobs.submit.mutate(sleepJob());
    const trajectory = await trainer.jobs.trajectory.query({ jobId: job.id });
    expect(trajectory).toEqual({ turns: [], toolCalls: [] });
    const error = (await trainer.jobs.trajectory
      .query({ jobId: "job_missing" })
      .catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(error.data?.code).toBe("NOT_FOUND");
    expect(error.data?.httpStatus).toBe(404);
  });

  it("flattens schema errors into one sentence", async () => {
    const error = (await trainer.jobs.submit
      // @ts-expect-error: wrong type on purpose
      .mutate({ kind: 42, priority: "high" })
      .catch((e: unknown) => e)) as TRPCClientError<AppRouter>;
    expect(error.data?.code).toBe("VALIDATION_FAILED");
    expect(error.message).toBe(
      "kind: expected string, received number; priority: expected number, received string",
    );
    expect(JSON.stringify(error.data)).not.toMatch(/at .*\.ts/);
  });

  it("reports health and stats, and an admin can resize a pool", async () => {
    const health = await trainer.system.health.query();
    expect(health.handlerKinds).toEqual(["sleep"]);
    const admin = trpcClient(server.url, TOKENS.admin);
    expect(await admin.system.setConcurrency.mutate({ stage: "eval", concurrency: 7 })).toEqual({
      stage: "eval",
      concurrency: 7,
    });
    const stats = await trainer.system.stats.query();
    expect(stats.stages.eval.concurrency).toBe(7);
    expect(stats.submitted).toBeGreaterThan(0);
  });
});
