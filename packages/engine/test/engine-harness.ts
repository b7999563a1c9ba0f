import type { TStage } from "@raas/shared";
import type { EngineOptions } from "../src/engine.types";
import { HandlerRegistry } from "../src/handler-registry";
import { createSleepHandler, type SleepHandlerOptions } from "../src/handlers/sleep-handler";
import { MemoryJobQueue } from "../src/memory/memory-job-queue";
import { MemoryJobStore } from "../src/memory/memory-job-store";
import type { JobStore } from "../src/ports/job-store.port";
import { RolloutEngine } from "../src/rollout-engine";

export interface StageEvent {
  jobId: string;
  stage: TStage;
  phase: "start" | "cleanup";
  atMs: number;
}

/** An engine on memory adapters with the sleep handler, recording every stage start and cleanup. */
export async function startTestEngine(
  options: {
    concurrency?: Partial<Record<TStage, number>>;
    timeoutsMs?: Partial<Record<TStage, number>>;
    store?: JobStore;
    sleep?: SleepHandlerOptions;
    inference?: EngineOptions["inference"];
  } = {},
) {
  const events: StageEvent[] = [];
  const handlers = new HandlerRegistry().register(
    createSleepHandler({
      ...options.sleep,
      onStage: (event) => {
        events.push({ ...event, atMs: performance.now() });
        options.sleep?.onStage?.(event);
      },
    }),
  );
  const store = options.store ?? new MemoryJobStore();
  const queue = new MemoryJobQueue();
  const pool = (stage: TStage) => ({
    concurrency: options.concurrency?.[stage] ?? 4,
    timeoutMs: options.timeoutsMs?.[stage] ?? 10_000,
  });
  const engine = new RolloutEngine({
    store,
    queue,
    handlers,
    pools: { init: pool("init"), run: pool("run"), eval: pool("eval") },
    ...(options.inference ? { inference: options.inference } : {}),
  });
  await engine.start();
  return {
    engine,
    store,
    events,
    async close() {
      await engine.stop({ graceMs: 100 });
      await queue.close();
      await store.close();
    },
  };
}

/** Polls `predicate` every 5 ms until it is true or `timeoutMs` passes (then throws). */
export async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 5));
  }
}
