import { afterEach, describe, expect, it } from "vitest";
import { HandlerRegistry } from "../src/handler-registry";
import { createSleepHandler } from "../src/handlers/sleep-handler";
import { MemoryJobQueue } from "../src/memory/memory-job-queue";
import { MemoryJobStore } from "../src/memory/memory-job-store";
import type { GenerationFlow, GenerationFlowResolver } from "../src/ports/inference-pool.port";
import { RolloutEngine } from "../src/rollout-engine";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

describe("the engine tells the inference pool each job's run", () => {
  it("resolves a running job to its run, share and priority; jobs of no run and unknown jobs to none", async () => {
    let flowOf: GenerationFlowResolver | null = null;
    /** What the pool would see for a job while its RUN stage generates. */
    const seen = new Map<string, GenerationFlow | null>();
    const handlers = new HandlerRegistry().register(
      createSleepHandler({
        onStage: ({ jobId, stage, phase }) => {
          if (stage === "run" && phase === "start") seen.set(jobId, flowOf?.(jobId) ?? null);
        },
      }),
    );
    const store = new MemoryJobStore();
    const queue = new MemoryJobQueue();
    const engine = new RolloutEngine({
      store,
      queue,
      handlers,
      inference: {
        releaseJob: () => {},
        resolveFlowsWith: (resolver) => {
          flowOf = resolver;
        },
      },
    });
    await engine.start();
    cleanups.push(async () => {
      await engine.stop({ graceMs: 100 });
      await queue.close();
      await store.close();
    });

    const payload = { initMs: 1, runMs: 5, evalMs: 1 };
    const [ofRun, plain] = await engine.submitJobs([
      {
        kind: "sleep",
        payload,
        priority: 7,
        metadata: { runId: "run_x", share: { weight: 3, maxSandboxes: null } },
      },
      { kind: "sleep", payload },
    ]);
    const ids = [ofRun?.job.id as string, plain?.job.id as string];
    // Each RUN started (and recorded what the pool sees) before its job could complete.
    expect((await engine.waitForJobs(ids, { timeoutMs: 30_000 })).done).toBe(true);
    expect([...seen.keys()].sort()).toEqual([...ids].sort());

    expect(seen.get(ids[0] as string)).toEqual({
      flowId: "run_x",
      weight: 3,
      priority: 7,
      maxInService: null,
    });
    expect(seen.get(ids[1] as string)).toMatchObject({ flowId: "", weight: 1, priority: 0 });
    expect(flowOf).not.toBeNull();
    expect((flowOf as unknown as GenerationFlowResolver)("no-such-job")).toBeNull();
  });
});
