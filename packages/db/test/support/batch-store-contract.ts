import { failureOf, type TPolicyState } from "@raas/shared";
import type { BatchStore, GroupRecord } from "@raas/training";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { makeGroup, makeRun, makeStep } from "./batch-fixtures";

export interface BatchStoreHarness {
  /** Opens the store once for the suite. */
  open(): Promise<BatchStore>;
  /** Empties it before each test (the memory adapter may return a new one). */
  reset(store: BatchStore): Promise<BatchStore>;
  /** Closes it and removes what `open` created. */
  dispose(store: BatchStore): Promise<void>;
}

async function expectConflict(insert: Promise<void>): Promise<void> {
  const error = await insert.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(failureOf(error)).toMatchObject({ kind: "request", code: "CONFLICT" });
}

/** The behaviour every `BatchStore` adapter must show (the memory adapter is the reference). */
export function describeBatchStoreContract(name: string, harness: BatchStoreHarness): void {
  describe(`BatchStore contract: ${name}`, () => {
    let store: BatchStore;
    beforeAll(async () => {
      store = await harness.open();
    });
    beforeEach(async () => {
      store = await harness.reset(store);
    });
    afterAll(async () => {
      if (store) await harness.dispose(store);
    });

    it("round-trips every field of a run, finds it by key and lists runs newest first", async () => {
      const full = makeRun();
      const bare = makeRun({
        runKey: null,
        model: null,
        dataset: null,
        config: null,
        taskCursors: {},
        createdAtMs: full.createdAtMs - 0.5,
      });
      const older = makeRun({ createdAtMs: full.createdAtMs - 1 });
      // Same creation time as `full`: the later id comes first.
      const twin = makeRun({ createdAtMs: full.createdAtMs, id: `${full.id}z` });
      for (const run of [full, bare, older, twin]) await store.insertRun(run);
      expect(await store.getRun(full.id)).toEqual(full);
      expect(await store.getRun(bare.id)).toEqual(bare);
      expect(await store.findRunByKey(full.runKey as string)).toEqual(full);
      expect(await store.getRun("run_missing")).toBeNull();
      expect(await store.findRunByKey("missing-key")).toBeNull();
      const listed = await store.listRuns(10);
      expect(listed.map((run) => run.id)).toEqual([twin.id, full.id, bare.id, older.id]);
      expect(listed[1]).toEqual(full);
      expect((await store.listRuns(2)).map((run) => run.id)).toEqual([twin.id, full.id]);
    });

    it("hands out copies: changing a record read or inserted leaves the stored one as it was", async () => {
      const run = makeRun();
      await store.insertRun(run);
      const expected = structuredClone(run);
      run.taskCursors.other = 5;
      const read = await store.getRun(run.id);
      (read as typeof run).config = { changed: true };
      expect(await store.getRun(run.id)).toEqual(expected);
    });

    it("round-trips steps, finds one by key within its run only and lists a run's steps by index", async () => {
      const run = makeRun();
      const other = makeRun();
      await store.insertRun(run);
      await store.insertRun(other);
      const second = makeStep(run.id, { index: 1, stepKey: "step-1", createdAtMs: 5 });
      const first = makeStep(run.id, { index: 0, stepKey: "step-0", createdAtMs: 9 });
      const keyless = makeStep(run.id, { index: 2, stepKey: null, closedAtMs: 1_764_000_009_000.5 });
      const elsewhere = makeStep(other.id, { stepKey: "step-0" });
      for (const step of [second, first, keyless, elsewhere]) await store.insertStep(step);
      expect(await store.getStep(first.id)).toEqual(first);
      expect(await store.getStep(keyless.id)).toEqual(keyless);
      expect(await store.findStepByKey(run.id, "step-0")).toEqual(first);
      expect(await store.findStepByKey(other.id, "step-0")).toEqual(elsewhere);
      expect(await store.findStepByKey(other.id, "step-1")).toBeNull();
      expect(await store.getStep("stp_missing")).toBeNull();
      expect(await store.listSteps(run.id)).toEqual([first, second, keyless]);
      expect(await store.listSteps("run_missing")).toEqual([]);
    });

    it("round-trips groups and lists a step's groups oldest first", async () => {
      const run = makeRun();
      await store.insertRun(run);
      const step = makeStep(run.id);
      const otherStep = makeStep(run.id, { index: 1, stepKey: "step-1" });
      await store.insertStep(step);
      await store.insertStep(otherStep);
      const late = makeGroup(step, { createdAtMs: 30 });
      const early = makeGroup(step, { createdAtMs: 10.5, decision: "undecided", state: "running" });
      const tieA = makeGroup(step, { createdAtMs: 20, seq: null, decidedAtMs: null, finishedAtMs: null });
      const tieB = makeGroup(step, { createdAtMs: 20, id: `${tieA.id}z`, members: [] });
      const elsewhere = makeGroup(otherStep);
      await store.insertGroups([late, early, tieB]);
      await store.insertGroups([tieA, elsewhere]);
      await store.insertGroups([]);
      expect(await store.getGroup(tieA.id)).toEqual(tieA);
      expect(await store.getGroup(late.id)).toEqual(late);
      expect(await store.getGroup("grp_missing")).toBeNull();
      expect(await store.listGroups(step.id)).toEqual([early, tieA, tieB, late]);
      expect(await store.listGroups(otherStep.id)).toEqual([elsewhere]);
    });

    it("saves compare-and-set: the version read wins once and is bumped in place; a stale copy is refused", async () => {
      const run = makeRun();
      await store.insertRun(run);
      const stale = structuredClone(run);
      run.stepCount = 4;
      run.taskCursors = { "dapo-math-17k": 128 };
      run.status = "finished";
      expect(await store.saveRun(run)).toBe(true);
      expect(run.version).toBe(1);
      expect(await store.getRun(run.id)).toEqual(run);

      stale.name = "lost update";
      expect(await store.saveRun(stale)).toBe(false);
      expect(stale.version).toBe(0);
      expect(await store.getRun(run.id)).toEqual(run);
      expect(await store.saveRun(makeRun())).toBe(false);

      const step = makeStep(run.id);
      await store.insertStep(step);
      const staleStep = structuredClone(step);
      step.status = "completed";
      step.closedAtMs = 1_764_000_010_000.5;
      step.stats.informative = 6;
      step.rewards.min = null;
      step.deliveredSeq = 5;
      expect(await store.saveStep(step)).toBe(true);
      expect(await store.saveStep(step)).toBe(true);
      expect(step.version).toBe(2);
      expect(await store.getStep(step.id)).toEqual(step);
      expect(await store.saveStep(staleStep)).toBe(false);
      expect(await store.getStep(step.id)).toEqual(step);

      const group = makeGroup(step);
      await store.insertGroups([group]);
      const staleGroup = structuredClone(group);
      group.state = "carried";
      group.members[0] = { ...(group.members[0] as GroupRecord["members"][number]), isStale: true };
      group.carriedIntoGroupId = "grp_next";
      expect(await store.saveGroup(group)).toBe(true);
      expect(group.version).toBe(1);
      expect(await store.getGroup(group.id)).toEqual(group);
      expect(await store.saveGroup(staleGroup)).toBe(false);
      expect(staleGroup.version).toBe(0);
      expect(await store.getGroup(group.id)).toEqual(group);
    });

    it("of racing saves of one version, exactly one wins", async () => {
      const run = makeRun();
      await store.insertRun(run);
      const copies = Array.from({ length: 6 }, (_, i) => ({ ...structuredClone(run), name: `writer ${i}` }));
      const results = await Promise.all(copies.map((copy) => store.saveRun(copy)));
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = copies[results.indexOf(true)];
      expect(await store.getRun(run.id)).toEqual(winner);
      expect(winner?.version).toBe(1);
      expect(copies.filter((copy) => copy.version === 0)).toHaveLength(5);
    });

    it("lists the running steps of every run; a step saved as closed leaves the list", async () => {
      const [a, b] = [makeRun(), makeRun()];
      await store.insertRun(a);
      await store.insertRun(b);
      const runningA = makeStep(a.id, { createdAtMs: 1 });
      const closedA = makeStep(a.id, { index: 1, stepKey: "s1", status: "completed", closedAtMs: 3 });
      const runningB = makeStep(b.id, { createdAtMs: 2 });
      const cancelledB = makeStep(b.id, { index: 1, stepKey: "s1", status: "cancelled", closedAtMs: 4 });
      for (const step of [runningA, closedA, runningB, cancelledB]) await store.insertStep(step);
      const byId = (steps: { id: string }[]) => steps.map((step) => step.id).sort();
      const running = await store.listRunningSteps();
      expect(byId(running)).toEqual([runningA.id, runningB.id].sort());
      expect(running.find((step) => step.id === runningB.id)).toEqual(runningB);

      runningA.status = "exhausted";
      runningA.closedAtMs = 5;
      expect(await store.saveStep(runningA)).toBe(true);
      expect(byId(await store.listRunningSteps())).toEqual([runningB.id]);
    });

    it("lists a run's carried groups no later step took or let go, oldest first", async () => {
      const [run, other] = [makeRun(), makeRun()];
      await store.insertRun(run);
      await store.insertRun(other);
      const step = makeStep(run.id);
      const otherStep = makeStep(other.id);
      await store.insertStep(step);
      await store.insertStep(otherStep);
      const carried = (createdAtMs: number, overrides: Partial<GroupRecord> = {}) =>
        makeGroup(step, { state: "carried", decision: "undecided", seq: null, createdAtMs, ...overrides });
      const newer = carried(40);
      const older = carried(10);
      const taken = carried(5, { carriedIntoGroupId: "grp_taker" });
      const running = makeGroup(step, { state: "running", decision: "undecided", createdAtMs: 1 });
      const dropped = makeGroup(step, { state: "dropped", decision: "uninformative", createdAtMs: 2 });
      const otherRuns = makeGroup(otherStep, { state: "carried", decision: "undecided", createdAtMs: 3 });
      await store.insertGroups([newer, older, taken, running, dropped, otherRuns]);
      expect(await store.listCarriedGroups(run.id)).toEqual([older, newer]);
      expect(await store.listCarriedGroups(other.id)).toEqual([otherRuns]);

      older.carriedIntoGroupId = "grp_next_step";
      expect(await store.saveGroup(older)).toBe(true);
      expect(await store.listCarriedGroups(run.id)).toEqual([newer]);
      expect(await store.listCarriedGroups("run_missing")).toEqual([]);

      newer.expiredInStepId = "stp_later";
      expect(await store.saveGroup(newer)).toBe(true);
      expect(await store.listCarriedGroups(run.id)).toEqual([]);
      expect((await store.getGroup(newer.id))?.expiredInStepId).toBe("stp_later");
    });

    it("keeps one state per policy: none at first, each save replaces that policy's only", async () => {
      expect(await store.listPolicyStates()).toEqual([]);
      const paused: TPolicyState = {
        policyId: "run-b",
        ownerId: "token:0123456789abcdef",
        weightVersion: Number.MAX_SAFE_INTEGER,
        isPaused: true,
        pauseMode: "abort-and-continue",
        pausedAtMs: 1_764_000_020_000.5,
      };
      await store.savePolicyState(paused);
      expect(await store.listPolicyStates()).toEqual([paused]);
      const running: TPolicyState = {
        policyId: "default",
        ownerId: null,
        weightVersion: 8,
        isPaused: false,
        pauseMode: null,
        pausedAtMs: null,
      };
      await store.savePolicyState(running);
      expect(await store.listPolicyStates()).toEqual([running, paused]);
      await store.savePolicyState({ ...running, weightVersion: null });
      expect(await store.listPolicyStates()).toEqual([{ ...running, weightVersion: null }, paused]);
    });

    it("refuses to insert an id twice with CONFLICT and keeps the stored record", async () => {
      const run = makeRun();
      await store.insertRun(run);
      await expectConflict(store.insertRun({ ...run, name: "again" }));
      expect(await store.getRun(run.id)).toEqual(run);

      const step = makeStep(run.id);
      await store.insertStep(step);
      await expectConflict(store.insertStep({ ...step, index: 9 }));
      expect(await store.getStep(step.id)).toEqual(step);

      const group = makeGroup(step);
      await store.insertGroups([group]);
      await expectConflict(store.insertGroups([{ ...group, taskId: "t-9" }]));
      await expectConflict(store.insertGroups([makeGroup(step), { ...group, state: "cancelled" }]));
      expect(await store.getGroup(group.id)).toEqual(group);
    });
  });
}
