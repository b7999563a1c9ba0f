import type { JobRecord, JobStore } from "@raas/engine";
import { ZJobListRequest } from "@raas/shared";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeFinishedJob, makeJob, makeSandboxEvent, makeToolCall, makeTurn } from "./job-fixtures";
import { describeTrajectoryFilterContract } from "./job-list-trajectory-filters-contract";
import { compareAndSetContract } from "./job-store-cas-contract";

/** How the contract gets a store: opened once per file, emptied before each test. */
export interface StoreHarness {
  open(): Promise<JobStore>;
  /** Empties the store (the memory adapter may simply open a new one). */
  reset(store: JobStore): Promise<JobStore>;
  /** Closes the store and removes what `open` created. */
  dispose(store: JobStore): Promise<void>;
  /** True when logprobs come back rounded to single precision (the compact bytea encoding). */
  logprobsAsFloat32: boolean;
}

const list = (query: Parameters<typeof ZJobListRequest.parse>[0]) => ZJobListRequest.parse(query);

/** The behaviour every `JobStore` adapter must show. */
export function describeJobStoreContract(name: string, harness: StoreHarness): void {
  describe(`JobStore contract: ${name}`, () => {
    let store: JobStore;

    beforeAll(async () => {
      store = await harness.open();
    });
    beforeEach(async () => {
      store = await harness.reset(store);
    });
    afterAll(async () => {
      if (store) await harness.dispose(store);
    });

    describeTrajectoryFilterContract(() => store);

    it("round-trips every field of a job exactly", async () => {
      const queued = makeJob({ jobKey: "k-queued" });
      const finished = makeFinishedJob();
      await store.insertJobs([queued, finished]);
      expect(await store.getJob(queued.id)).toEqual(queued);
      expect(await store.getJob(finished.id)).toEqual(finished);
      expect(await store.findJobByKey("k-queued")).toEqual(queued);
      expect(await store.findJobByKey(finished.jobKey!)).toEqual(finished);
      expect(await store.getJob("job_missing")).toBeNull();
      expect(await store.findJobByKey("missing-key")).toBeNull();
    });

    it("round-trips a verifier's turn rewards, inserted and patched, and none as absent", async () => {
      const turnRewards = [
        { turn: 3, reward: -0.25, label: "undid a fix" },
        { turn: 0, reward: 1e-9, label: null },
      ];
      const graded = makeFinishedJob({ status: "completed", failure: null, turnRewards });
      const plain = makeJob();
      await store.insertJobs([graded, plain]);
      expect(await store.getJob(graded.id)).toEqual(graded);
      await store.updateJobs([{ id: plain.id, turnRewards: [{ turn: 1, reward: 2, label: null }] }]);
      expect((await store.getJob(plain.id))?.turnRewards).toEqual([{ turn: 1, reward: 2, label: null }]);
      expect(await store.getJob(makeJob().id)).toBeNull();
      expect(makeJob()).not.toHaveProperty("turnRewards");
    });

    it("never inserts a job key twice, across and within batches, and ignores a repeated id", async () => {
      const first = makeJob({ jobKey: "dup", payload: { n: 1 } });
      await store.insertJobs([first]);
      const sameKey = makeJob({ jobKey: "dup", payload: { n: 2 } });
      const twinA = makeJob({ jobKey: "twin", payload: { n: 3 } });
      const twinB = makeJob({ jobKey: "twin", payload: { n: 4 } });
      await store.insertJobs([sameKey, twinA, twinB, { ...first, payload: { n: 5 } }]);
      expect(await store.findJobByKey("dup")).toEqual(first);
      expect(await store.getJob(sameKey.id)).toBeNull();
      expect((await store.findJobByKey("twin"))?.payload).toEqual({ n: 3 });
      expect(await store.getJob(twinB.id)).toBeNull();
      expect((await store.totals()).submitted).toBe(2);
    });

    it("applies patches in order, several per job in one call", async () => {
      const a = makeJob();
      const b = makeJob();
      await store.insertJobs([a, b]);
      await store.updateJobs([
        { id: a.id, status: "active", stage: "run", updatedAtMs: 10 },
        { id: b.id, status: "failed", failure: { kind: "sandbox", stage: "init", message: "no bwrap" } },
        { id: a.id, timings: { queueMs: 1, initMs: 2.5, runMs: null, evalMs: null }, updatedAtMs: 11 },
        { id: "job_unknown", status: "completed" },
        { id: a.id, status: "completed", stage: "eval", reward: 1, trainable: true, result: { ok: [1] } },
        { id: b.id, failure: null, status: "queued", attempts: 1, metadata: { retried: true } },
      ]);
      expect(await store.getJob(a.id)).toEqual({
        ...a,
        status: "completed",
        stage: "eval",
        reward: 1,
        trainable: true,
        result: { ok: [1] },
        timings: { queueMs: 1, initMs: 2.5, runMs: null, evalMs: null },
        updatedAtMs: 11,
      });
      expect(await store.getJob(b.id)).toEqual({
        ...b,
        status: "queued",
        attempts: 1,
        metadata: { retried: true },
      });
      expect(await store.getJob("job_unknown")).toBeNull();
      await store.updateJobs([{ id: a.id, finishedAtMs: 99.5, result: null }]);
      expect(await store.getJob(a.id)).toMatchObject({ finishedAtMs: 99.5, result: null, reward: 1 });
    });

    it("keeps an agent failure's reward (0 and negative) and reason; an infrastructure failure's stays null", async () => {
      const zero = makeJob({ status: "active", stage: "run" });
      const negative = makeJob({ status: "active", stage: "run" });
      const infra = makeJob({ status: "active", stage: "run" });
      const inserted = makeJob({
        status: "failed",
        stage: "run",
        failure: { kind: "agent", stage: "run", message: "policy fault in tool bash: memory limit" },
        reward: 0,
        trainable: true,
      });
      await store.insertJobs([zero, negative, infra, inserted]);
      const agentFailure = (message: string) => ({ kind: "agent" as const, stage: "run" as const, message });
      await store.updateJobs([
        {
          id: zero.id,
          status: "failed",
          failure: agentFailure("killed the execution server"),
          reward: 0,
          trainable: true,
        },
        {
          id: negative.id,
          status: "failed",
          failure: agentFailure("pids limit"),
          reward: -0.5,
          trainable: true,
        },
        {
          id: infra.id,
          status: "failed",
          failure: { kind: "sandbox", stage: "run", message: "sandbox died while idle" },
          reward: null,
          trainable: false,
        },
      ]);
      const stored = await Promise.all([zero, negative, infra, inserted].map((job) => store.getJob(job.id)));
      expect(
        stored.map((job) => [job?.failure?.kind, job?.trainable, job?.reward, job?.failure?.message]),
      ).toEqual([
        ["agent", true, 0, "killed the execution server"],
        ["agent", true, -0.5, "pids limit"],
        ["sandbox", false, null, "sandbox died while idle"],
        ["agent", true, 0, "policy fault in tool bash: memory limit"],
      ]);
    });

    it("keeps a failure label and the grader's report through insert, patch, transition, filter and totals", async () => {
      const report = {
        graded: { passed: ["tests/test_a.py::t1"], failed: [] },
        canaries: [{ name: "test_canary_9c1e", expected: "failed", reported: "passed", lied: true }],
      };
      const tampered = (message: string) => ({
        kind: "agent" as const,
        stage: "eval" as const,
        message,
        label: "tampered" as const,
      });
      const inserted = makeFinishedJob({
        failure: tampered("canary test_canary_9c1e reported passed"),
        reward: 0,
        trainable: true,
        result: report,
      });
      const patched = makeJob({ status: "active", stage: "eval" });
      const moved = makeJob({ status: "active", stage: "eval" });
      const plain = makeJob({
        status: "failed",
        stage: "run",
        failure: { kind: "agent", stage: "run", message: "gave up" },
        reward: 0,
        trainable: true,
      });
      // The job's own configuration failed (an MCP server that cannot start): sandbox, reward null.
      const misconfigured = makeFinishedJob({
        failure: { kind: "sandbox", stage: "init", message: "MCP server exited", label: "misconfigured" },
        reward: null,
        trainable: false,
      });
      await store.insertJobs([inserted, patched, moved, plain, misconfigured]);
      await store.updateJobs([
        {
          id: patched.id,
          status: "failed",
          failure: tampered("a canary lied"),
          reward: 0,
          trainable: true,
          result: report,
        },
      ]);
      const transition = {
        id: moved.id,
        status: "failed" as const,
        failure: tampered("a canary errored"),
        reward: 0,
        trainable: true,
        result: report,
        finishedAtMs: 7,
      };
      expect(await store.transitionJobs([{ patch: transition, expectedVersion: 0, version: 1 }])).toEqual([]);

      expect(await store.getJob(inserted.id)).toEqual(inserted);
      expect(await store.getJob(patched.id)).toMatchObject({
        failure: tampered("a canary lied"),
        result: report,
      });
      expect((await store.readJob(moved.id))?.record).toEqual({ ...moved, ...transition });
      // An unlabelled failure reads back without a label, exactly as the engine wrote it.
      expect((await store.getJob(plain.id))?.failure).toEqual({
        kind: "agent",
        stage: "run",
        message: "gave up",
      });

      const labelled = await store.listJobs(list({ failureLabel: "tampered" }));
      expect(labelled.items.map((job) => job.id).sort()).toEqual([inserted.id, patched.id, moved.id].sort());
      expect(labelled.items.every((job) => job.failure?.label === "tampered")).toBe(true);
      expect(await store.totals()).toMatchObject({
        failedByKind: { agent: 4, sandbox: 1 },
        failedByLabel: { tampered: 3, misconfigured: 1 },
      });
      expect((await store.getJob(misconfigured.id))?.failure?.label).toBe("misconfigured");
      const broken = await store.listJobs(list({ failureLabel: "misconfigured" }));
      expect(broken.items.map((job) => job.id)).toEqual([misconfigured.id]);

      // A restarted job's failure is cleared, label included.
      await store.updateJobs([{ id: patched.id, status: "queued", failure: null, result: null }]);
      expect(await store.getJob(patched.id)).toMatchObject({ failure: null, result: null });
      expect((await store.totals()).failedByLabel).toEqual({ tampered: 2, misconfigured: 1 });
    });

    describe("listJobs", () => {
      let jobs: JobRecord[];
      beforeEach(async () => {
        jobs = [
          makeJob({ kind: "math", groupId: "g1", batchId: "b1", jobKey: "Alpha-1" }),
          makeJob({ kind: "swe", status: "active", stage: "run", groupId: "g1", batchId: "b1" }),
          makeJob({
            kind: "swe",
            status: "completed",
            stage: "eval",
            groupId: "g2",
            batchId: "b1",
            reward: 1,
          }),
          makeJob({
            kind: "math",
            status: "failed",
            stage: "run",
            groupId: "g2",
            failure: { kind: "timeout", stage: "run", message: "slow" },
          }),
          makeJob({
            kind: "swe",
            status: "cancelled",
            stage: "init",
            failure: { kind: "cancelled", stage: "init", message: "by caller" },
            jobKey: "beta_2",
          }),
        ];
        await store.insertJobs(jobs);
      });
      const ids = (items: JobRecord[]) => items.map((job) => job.id);
      const newestFirst = (selected: JobRecord[]) => ids(selected).sort().reverse();

      it("returns newest first and applies every filter", async () => {
        const all = await store.listJobs(list({}));
        expect(ids(all.items)).toEqual(newestFirst(jobs));
        expect(all.nextCursor).toBeNull();
        const [j0, j1, j2, j3, j4] = jobs as [JobRecord, JobRecord, JobRecord, JobRecord, JobRecord];
        expect(ids((await store.listJobs(list({ status: "queued" }))).items)).toEqual([j0.id]);
        expect(ids((await store.listJobs(list({ stage: "run" }))).items)).toEqual(newestFirst([j1, j3]));
        expect(ids((await store.listJobs(list({ kind: "swe" }))).items)).toEqual(newestFirst([j1, j2, j4]));
        expect(ids((await store.listJobs(list({ failureKind: "timeout" }))).items)).toEqual([j3.id]);
        expect(ids((await store.listJobs(list({ groupId: "g2" }))).items)).toEqual(newestFirst([j2, j3]));
        expect(ids((await store.listJobs(list({ batchId: "b1" }))).items)).toEqual(newestFirst([j0, j1, j2]));
        expect(
          ids((await store.listJobs(list({ batchId: "b1", kind: "swe", stage: "eval" }))).items),
        ).toEqual([j2.id]);
        expect((await store.listJobs(list({ groupId: "nope" }))).items).toEqual([]);
      });

      it("searches a substring of the id or the job key, ignoring case", async () => {
        const [j0, j1, , , j4] = jobs as JobRecord[];
        expect(ids((await store.listJobs(list({ search: "alpha" }))).items)).toEqual([j0!.id]);
        expect(ids((await store.listJobs(list({ search: "A_2" }))).items)).toEqual([j4!.id]);
        expect(ids((await store.listJobs(list({ search: j1!.id.slice(-8).toUpperCase() }))).items)).toEqual([
          j1!.id,
        ]);
        // `_` and `%` are literal characters, not LIKE wildcards.
        expect((await store.listJobs(list({ search: "a%1" }))).items).toEqual([]);
        expect((await store.listJobs(list({ search: "beta-2" }))).items).toEqual([]);
      });

      it("pages with the id of the last item as the cursor", async () => {
        const seen: string[] = [];
        let cursor: string | undefined;
        for (let page = 0; page < 10; page += 1) {
          const result = await store.listJobs(list({ limit: 2, ...(cursor && { cursor }) }));
          seen.push(...ids(result.items));
          expect(result.items.length).toBeLessThanOrEqual(2);
          if (result.nextCursor === null) break;
          expect(result.nextCursor).toBe(result.items[result.items.length - 1]?.id);
          cursor = result.nextCursor;
        }
        expect(seen).toEqual(newestFirst(jobs));
        const filtered = await store.listJobs(list({ kind: "swe", limit: 2 }));
        expect(filtered.items).toHaveLength(2);
        const rest = await store.listJobs(list({ kind: "swe", limit: 2, cursor: filtered.nextCursor! }));
        expect(rest.nextCursor).toBeNull();
        expect([...ids(filtered.items), ...ids(rest.items)]).toEqual(
          newestFirst(jobs.filter((j) => j.kind === "swe")),
        );
      });

      it("lists unfinished jobs and the non-terminal ids of a group or batch", async () => {
        const [j0, j1] = jobs as JobRecord[];
        expect(ids(await store.listUnfinishedJobs()).sort()).toEqual([j0!.id, j1!.id].sort());
        expect((await store.listJobIds({ groupId: "g1" })).sort()).toEqual([j0!.id, j1!.id].sort());
        expect(await store.listJobIds({ groupId: "g2" })).toEqual([]);
        expect((await store.listJobIds({ batchId: "b1" })).sort()).toEqual([j0!.id, j1!.id].sort());
        expect(await store.listJobIds({ batchId: "b-none" })).toEqual([]);
      });

      it("lists the distinct owners of every job of a group or batch, finished ones and null included", async () => {
        await store.insertJobs([
          makeJob({ groupId: "g-own", batchId: "b-own", ownerId: "token:aaaaaaaaaaaaaaaa" }),
          makeJob({
            groupId: "g-own",
            batchId: "b-own",
            ownerId: "token:aaaaaaaaaaaaaaaa",
            status: "completed",
          }),
          makeJob({
            groupId: "g-other",
            batchId: "b-own",
            ownerId: "token:bbbbbbbbbbbbbbbb",
            status: "failed",
          }),
          makeJob({ groupId: "g-other", batchId: "b-own", ownerId: null }),
        ]);
        const sorted = (owners: Array<string | null>) =>
          [...owners].sort((a, b) => String(a).localeCompare(String(b)));
        expect(await store.listJobOwners({ groupId: "g-own" })).toEqual(["token:aaaaaaaaaaaaaaaa"]);
        expect(sorted(await store.listJobOwners({ groupId: "g-other" }))).toEqual([
          null,
          "token:bbbbbbbbbbbbbbbb",
        ]);
        expect(sorted(await store.listJobOwners({ batchId: "b-own" }))).toEqual([
          null,
          "token:aaaaaaaaaaaaaaaa",
          "token:bbbbbbbbbbbbbbbb",
        ]);
        expect(await store.listJobOwners({ batchId: "b-none" })).toEqual([]);
      });

      it("counts totals over every job", async () => {
        await store.insertJobs([
          makeJob({ status: "failed", failure: { kind: "timeout", stage: "init", message: "x" } }),
          makeJob({ status: "failed", failure: { kind: "agent", stage: "run", message: "bad tool" } }),
        ]);
        expect(await store.totals()).toEqual({
          submitted: 7,
          completed: 1,
          cancelled: 1,
          failedByKind: { timeout: 2, agent: 1 },
          failedByLabel: {},
        });
      });
    });

    it("inserts large batches in one call", async () => {
      const batch = Array.from({ length: 2_500 }, (_, i) => makeJob({ jobKey: `bulk-${i}`, priority: i }));
      await store.insertJobs(batch);
      expect((await store.totals()).submitted).toBe(2_500);
      expect(await store.findJobByKey("bulk-2499")).toEqual(batch[2_499]);
      await store.updateJobs(
        batch.map((job) => ({ id: job.id, status: "active" as const, stage: "run" as const })),
      );
      expect((await store.listJobs(list({ status: "active", limit: 500 }))).items).toHaveLength(500);
      expect(await store.listUnfinishedJobs()).toHaveLength(2_500);
    });

    it("round-trips turns with exact token ids, float32 logprobs and an unknown cached count as null", async () => {
      const job = makeJob();
      await store.insertJobs([job]);
      const turns = [
        makeTurn(job.id, 1, { text: null, finishReason: null, backendId: null, cachedPromptTokens: null }),
        makeTurn(job.id, 0),
      ];
      const empty = makeTurn(job.id, 2, {
        promptIds: [],
        responseIds: [],
        logprobs: [],
        weightVersion: null,
        cachedPromptTokens: 0,
      });
      await store.appendTurns(turns);
      await store.appendTurns([empty]);
      const stored = await store.listTurns(job.id);
      expect(stored.map((turn) => turn.index)).toEqual([0, 1, 2]);
      for (const [i, original] of [turns[1]!, turns[0]!, empty].entries()) {
        const logprobs = harness.logprobsAsFloat32 ? original.logprobs.map(Math.fround) : original.logprobs;
        expect(stored[i]).toEqual({ ...original, logprobs });
      }
      expect(stored.map((turn) => turn.cachedPromptTokens)).toEqual([4, null, 0]);
      expect(stored[0]?.promptIds).toContain(151_644);
      expect(await store.listTurns("job_other")).toEqual([]);
    });

    it("round-trips the per-token weight versions of a turn continued across a weight sync", async () => {
      const job = makeJob();
      await store.insertJobs([job]);
      const spans = [
        { start: 0, end: 3, weightVersion: "7" },
        { start: 3, end: 5, weightVersion: "8" },
      ];
      await store.appendTurns([
        makeTurn(job.id, 0, {
          responseIds: [1, 2, 3, 4, 5],
          logprobs: [-1, -1, -1, -1, -1],
          weightVersionSpans: spans,
        }),
        makeTurn(job.id, 1),
      ]);
      const stored = await store.listTurns(job.id);
      expect(stored.map((turn) => turn.weightVersionSpans)).toEqual([spans, null]);
    });

    it("round-trips the sampling parameters each turn was generated with, absent where none were kept", async () => {
      const job = makeJob();
      await store.insertJobs([job]);
      const sampling = { temperature: 0.6, topP: 0.95, topK: 20, seed: 17, maxTokens: 512 };
      const greedy = { temperature: 0, topP: 1, topK: null, seed: null, maxTokens: 64 };
      await store.appendTurns([
        makeTurn(job.id, 0, { sampling }),
        makeTurn(job.id, 1, { sampling: greedy }),
        makeTurn(job.id, 2),
      ]);
      const stored = await store.listTurns(job.id);
      expect(stored.map((turn) => turn.sampling)).toEqual([sampling, greedy, undefined]);
    });

    it("round-trips tool calls in turn order", async () => {
      const calls = [
        makeToolCall("job_t", 1, 0, { reward: -0.75 }),
        makeToolCall("job_t", 0, 1, { exitCode: null, isError: true, arguments: "raw text" }),
        makeToolCall("job_t", 0, 0, { name: "python", arguments: null }),
      ];
      await store.appendToolCalls(calls);
      expect(await store.listToolCalls("job_t")).toEqual([calls[2], calls[1], calls[0]]);
      expect(await store.listToolCalls("job_none")).toEqual([]);
    });

    it("deletes one job's turns and tool calls, leaving other jobs' alone", async () => {
      const [a, b] = [makeJob(), makeJob()];
      await store.insertJobs([a, b]);
      await store.appendTurns([makeTurn(a.id, 0), makeTurn(a.id, 1), makeTurn(b.id, 0)]);
      await store.appendToolCalls([makeToolCall(a.id, 0, 0), makeToolCall(b.id, 0, 0)]);
      await store.deleteTrajectory(a.id);
      expect(await store.listTurns(a.id)).toEqual([]);
      expect(await store.listToolCalls(a.id)).toEqual([]);
      expect((await store.listTurns(b.id)).map((turn) => turn.index)).toEqual([0]);
      expect(await store.listToolCalls(b.id)).toHaveLength(1);
      await store.deleteTrajectory("job_never_existed");
    });

    it("keeps sandbox events, filtered and limited to the most recent", async () => {
      const events = [
        makeSandboxEvent("sb1", "job_a", 1, "created"),
        makeSandboxEvent("sb1", "job_a", 2, "ready"),
        makeSandboxEvent("sb2", "job_b", 3, "created"),
        makeSandboxEvent("sb1", "job_a", 4, "closed"),
        { ...makeSandboxEvent("sb3", null, 5, "crashed"), state: "failed" as const, detail: null },
      ];
      await store.appendSandboxEvents(events.slice(0, 2));
      await store.appendSandboxEvents(events.slice(2));
      expect(await store.listSandboxEvents({ jobId: "job_a" })).toEqual([events[0], events[1], events[3]]);
      expect(await store.listSandboxEvents({ sandboxId: "sb2" })).toEqual([events[2]]);
      expect(await store.listSandboxEvents({ jobId: "job_a", limit: 2 })).toEqual([events[1], events[3]]);
      expect(await store.listSandboxEvents({})).toEqual(events);
    });

    compareAndSetContract(() => store);
  });
}
