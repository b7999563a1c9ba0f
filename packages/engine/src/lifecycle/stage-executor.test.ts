import { abortFailure } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineHandler } from "../define-handler";
import { systemClock } from "../ports/clock.port";
import type { JobRecord } from "../ports/job-record.types";
import type { TaskHandler, TrajectoryRecorder } from "../ports/task-handler.port";
import { newLiveJob } from "./live-job";
import { runStage } from "./stage-executor";

const record = { id: "job_1", kind: "probe", status: "active", stage: "init" } as unknown as JobRecord;
const recorder = {} as TrajectoryRecorder;

function probe(init: TaskHandler<unknown, unknown, unknown>["init"]) {
  return defineHandler({
    kind: "probe",
    payloadSchema: z.unknown(),
    init,
    run: async () => null,
    eval: async () => ({ reward: 1 }),
  });
}

describe("runStage", () => {
  it("reports a cancel that landed as the work returned as cancelled, not ok", async () => {
    const live = newLiveJob(record, null, 0);
    const handler = probe(async () => {
      const controller = live.controller;
      // Two promise jobs after this return: the work has settled the stage's race, whose
      // continuation has not run yet (a cancel arriving just as the handler finished).
      void Promise.resolve()
        .then(() => undefined)
        .then(() => controller?.abort(abortFailure("cancelled", "cancelled by request")));
      return "done";
    });
    const outcome = await runStage({
      live,
      stage: "init",
      handler,
      timeoutMs: 60_000,
      clock: systemClock,
      record: recorder,
    });
    expect(outcome).toMatchObject({ type: "failed", failure: { kind: "cancelled" } });
  });

  it("runs a cleanup handed over after the stage was aborted at once", async () => {
    const live = newLiveJob(record, null, 0);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const closed: string[] = [];
    const handler = probe(async (ctx) => {
      await gate;
      ctx.deferToJobEnd(async () => {
        closed.push("job");
      });
      ctx.defer(async () => {
        closed.push("stage");
      });
    });
    const running = runStage({
      live,
      stage: "init",
      handler,
      timeoutMs: 60_000,
      clock: systemClock,
      record: recorder,
    });
    live.controller?.abort(abortFailure("cancelled", "cancelled by request"));
    expect(await running).toMatchObject({ type: "failed", failure: { kind: "cancelled" } });
    release();
    for (let round = 0; round < 3; round++) await new Promise((resolve) => setImmediate(resolve));
    expect(closed.sort()).toEqual(["job", "stage"]);
    expect(live.jobCleanups).toEqual([]);
  });
});
