import type { TJob } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { HandlerRegistry } from "../src/handler-registry";
import { createSleepHandler } from "../src/handlers/sleep-handler";
import { MemoryEventBus } from "../src/memory/memory-event-bus";
import { MemoryJobQueue } from "../src/memory/memory-job-queue";
import { MemoryJobStore } from "../src/memory/memory-job-store";
import type { EventBus, TBusChannel } from "../src/ports/event-bus.port";
import { RolloutEngine } from "../src/rollout-engine";
import { ManualClock } from "../src/testing/manual-clock";

/** A shared bus that drops every message while `isDown`, and says when it is back (like Redis pub/sub). */
class LossyBus implements EventBus {
  readonly #inner = new MemoryEventBus();
  readonly #restored = new Set<() => void>();
  isDown = false;

  async publish(channel: TBusChannel, message: string): Promise<void> {
    if (!this.isDown) await this.#inner.publish(channel, message);
  }

  subscribe(channel: TBusChannel, listener: (message: string) => void): Promise<() => Promise<void>> {
    return this.#inner.subscribe(channel, listener);
  }

  onRestored(listener: () => void): () => void {
    this.#restored.add(listener);
    return () => this.#restored.delete(listener);
  }

  restore(): void {
    this.isDown = false;
    for (const listener of this.#restored) listener();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}

const started: RolloutEngine[] = [];

afterEach(async () => {
  for (const made of started.splice(0)) await made.stop({ graceMs: 0 });
});

/**
 * An API-only engine (no pools) and a worker running every pool, on a bus that can lose messages,
 * all on one ManualClock: `advance(ms)` moves it a millisecond at a time, both engines committing
 * what each step started.
 */
async function deployment() {
  const bus = new LossyBus();
  const clock = new ManualClock();
  const shared = { store: new MemoryJobStore(), queue: new MemoryJobQueue({ clock }), bus, clock };
  const handlers = new HandlerRegistry().register(createSleepHandler({ clock }));
  const pools = (concurrency: number) => {
    const pool = { concurrency, timeoutMs: 10_000 };
    return { init: pool, run: pool, eval: pool };
  };
  const api = new RolloutEngine({ ...shared, handlers, workerId: "api", pools: pools(0) });
  const worker = new RolloutEngine({ ...shared, handlers, workerId: "worker", pools: pools(2) });
  for (const made of [api, worker]) {
    await made.start();
    started.push(made);
  }
  const advance = async (ms: number) => {
    for (let step = 0; step < ms; step++) {
      await clock.advance(1);
      await Promise.all([api.flush(), worker.flush()]);
    }
  };
  return { api, worker, bus, store: shared.store, advance };
}

const payload = { initMs: 1, runMs: 1, evalMs: 1, reward: 1 };

describe("RolloutEngine after job events were lost on the bus", () => {
  it("answers get and list from the store, not from the copy the lost events left", async () => {
    const { api, bus, store, advance } = await deployment();
    const [submitted] = await api.submitJobs([{ kind: "sleep", payload: { ...payload, evalMs: 200 } }]);
    const id = (submitted as { job: TJob }).job.id;
    for (let ms = 0; ms < 10 && (await api.getJob(id)).stage !== "eval"; ms++) await advance(1);
    expect((await api.getJob(id)).stage).toBe("eval");
    // The job's end falls while the bus is down: the API engine never hears it.
    bus.isDown = true;
    await advance(200);
    expect((await store.getJob(id))?.status).toBe("completed");

    expect((await api.getJob(id)).status).toBe("completed");
    const { items } = await api.listJobs({});
    expect(items.find((job) => job.id === id)?.status).toBe("completed");
  });

  it("re-reads its unfinished jobs when the bus is back: listeners and totals hear the lost ends", async () => {
    const { api, bus, store, advance } = await deployment();
    bus.isDown = true;
    const results = await api.submitJobs([
      { kind: "sleep", payload },
      { kind: "sleep", payload },
    ]);
    const ids = results.map((result) => result.job.id);
    // Each job sleeps 1 ms a stage: well within 10 ms of clock time.
    await advance(10);
    const stored = await Promise.all(ids.map((id) => store.getJob(id)));
    expect(stored.map((job) => job?.status)).toEqual(["completed", "completed"]);
    const heard: TJob[] = [];
    const heardBothEnds = new Promise<void>((resolve) =>
      api.subscribe((event) => {
        heard.push(event.job);
        if (heard.filter((job) => job.status === "completed").length === 2) resolve();
      }),
    );
    expect(api.stats().completed).toBe(0);

    bus.restore();
    await heardBothEnds;
    expect(heard.map((job) => job.id).sort()).toEqual([...ids].sort());
    expect(api.stats().completed).toBe(2);
    expect(api.stats().stages.init.queued).toBe(0);
  });
});
