import type { TJob, TStage } from "@raas/shared";
import type { EngineOptions } from "../src/engine.types";
import { HandlerRegistry } from "../src/handler-registry";
import { createSleepHandler, type SleepHandlerOptions } from "../src/handlers/sleep-handler";
import { MemoryJobQueue } from "../src/memory/memory-job-queue";
import { MemoryJobStore } from "../src/memory/memory-job-store";
import { type Clock, systemClock } from "../src/ports/clock.port";
import type { JobStore } from "../src/ports/job-store.port";
import { RolloutEngine } from "../src/rollout-engine";
import { ManualClock } from "../src/testing/manual-clock";

export interface StageEvent {
  jobId: string;
  stage: TStage;
  phase: "start" | "cleanup";
  atMs: number;
}

/**
 * An engine on memory adapters with the sleep handler, recording every stage start and cleanup.
 * With `clock` (a `ManualClock`), the engine, its queue and the handler's sleeps all run on it.
 */
export async function startTestEngine(
  options: {
    concurrency?: Partial<Record<TStage, number>>;
    timeoutsMs?: Partial<Record<TStage, number>>;
    store?: JobStore;
    sleep?: SleepHandlerOptions;
    inference?: EngineOptions["inference"];
    clock?: Clock;
  } = {},
) {
  const clock = options.clock ?? systemClock;
  const events: StageEvent[] = [];
  const waiters: { matches: (event: StageEvent) => boolean; resolve: () => void }[] = [];
  const handlers = new HandlerRegistry().register(
    createSleepHandler({
      ...options.sleep,
      ...(options.clock && { clock: options.clock }),
      onStage: (event) => {
        const recorded = { ...event, atMs: clock.now() };
        events.push(recorded);
        for (const waiter of waiters.filter((w) => w.matches(recorded))) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
        options.sleep?.onStage?.(event);
      },
    }),
  );
  const store = options.store ?? new MemoryJobStore();
  const queue = new MemoryJobQueue(options.clock ? { clock: options.clock } : {});
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
    ...(options.clock && { clock: options.clock }),
  });
  await engine.start();
  return {
    engine,
    store,
    events,
    /**
     * Moves the manual clock on by `ms`, a millisecond at a time, letting the engine commit what
     * each step started before the next: time never jumps past work still in flight.
     */
    async advance(ms: number): Promise<void> {
      if (!(options.clock instanceof ManualClock)) throw new Error("advance() needs a ManualClock");
      for (let step = 0; step < ms; step++) {
        await options.clock.advance(1);
        await engine.flush();
      }
    },
    /**
     * Moves the manual clock on as `advance` does until `done` settles, and returns its value; past
     * `limitMs` of clock time it throws (a deterministic bound: the clock only moves here).
     */
    async advanceUntil<T>(done: Promise<T>, limitMs = 60_000): Promise<T> {
      let isSettled = false;
      const watched = done.finally(() => {
        isSettled = true;
      });
      await settleIo();
      for (let ms = 0; !isSettled; ms++) {
        if (ms >= limitMs) throw new Error(`still waiting after ${limitMs} ms of manual-clock time`);
        await this.advance(1);
      }
      return watched;
    },
    /** Resolves once a stage event matching `event` has been recorded (at once if it already was). */
    reached(event: Partial<Omit<StageEvent, "atMs">>): Promise<void> {
      const matches = (e: StageEvent) =>
        Object.entries(event).every(([key, value]) => e[key as keyof StageEvent] === value);
      if (events.some(matches)) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ matches, resolve }));
    },
    async close() {
      let isStopped = false;
      const stopping = engine.stop({ graceMs: 100 }).finally(() => {
        isStopped = true;
      });
      // On a manual clock the stop's grace passes only when the test moves time.
      while (options.clock instanceof ManualClock && !isStopped) await options.clock.advance(100);
      await stopping;
      await queue.close();
      await store.close();
    },
  };
}

/**
 * Resolves with the job once it satisfies `matches`: at once when its current state does, else at
 * the first job event (stored change, or one heard on the bus) that does. No timer: a test whose
 * job never gets there fails on vitest's timeout, and nothing depends on how fast it got there.
 */
export function jobReaches(
  engine: Pick<RolloutEngine, "subscribe" | "getJob">,
  jobId: string,
  matches: (job: TJob) => boolean,
): Promise<TJob> {
  return new Promise<TJob>((resolve, reject) => {
    let isDone = false;
    const finish = (job: TJob) => {
      if (isDone || !matches(job)) return;
      isDone = true;
      unsubscribe();
      resolve(job);
    };
    // Subscribed before the read: a change between the two is heard, not missed.
    const unsubscribe = engine.subscribe((event) => {
      if (event.job.id === jobId) finish(event.job);
    });
    engine.getJob(jobId).then(finish, (error: unknown) => {
      unsubscribe();
      reject(error);
    });
  });
}

/** Lets queued promise callbacks and immediate callbacks run (in-process work on a manual clock). */
export async function settleIo(rounds = 10): Promise<void> {
  for (let round = 0; round < rounds; round++) await new Promise<void>((resolve) => setImmediate(resolve));
}
