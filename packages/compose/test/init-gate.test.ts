import {
  createSleepHandler,
  HandlerRegistry,
  MemoryJobQueue,
  MemoryJobStore,
  MemoryWorkerStore,
  RolloutEngine,
  type SandboxRuntime,
} from "@raas/engine";
import { afterEach, describe, expect, it } from "vitest";
import { type ComposedWorkers, composeWorkers } from "../src/compose-workers";
import { InitGate, initCapacity } from "../src/init-gate";

const INIT_SLOTS = 3;
const WORKER_ID = "node-1:101";

/** A runtime that starts nothing: the worker's sandbox count is all `composeWorkers` reads of it. */
const idleRuntime: SandboxRuntime = {
  name: "local",
  create: () => Promise.reject(new Error("this test starts no sandbox")),
  onEvent: () => () => undefined,
  closeAll: async () => undefined,
};

const silent = { debug() {}, info() {}, warn() {}, error() {} };

interface Rig {
  engine: RolloutEngine;
  store: MemoryWorkerStore;
  workers: ComposedWorkers;
}

let rig: Rig | null = null;
afterEach(async () => {
  await rig?.workers.close();
  await rig?.engine.stop({ graceMs: 100 });
  rig = null;
});

/** A worker as `apps/worker` composes it: a real engine with INIT slots, its heartbeat on a store. */
async function startRig(): Promise<Rig> {
  const pool = (concurrency: number) => ({ concurrency, timeoutMs: 60_000 });
  const engine = new RolloutEngine({
    store: new MemoryJobStore(),
    queue: new MemoryJobQueue(),
    handlers: new HandlerRegistry().register(createSleepHandler()),
    pools: { init: pool(INIT_SLOTS), run: pool(2), eval: pool(1) },
  });
  await engine.start();
  const store = new MemoryWorkerStore();
  const workers = await composeWorkers({
    store,
    engine,
    sandboxRuntime: idleRuntime,
    workerId: WORKER_ID,
    monitor: false,
    heartbeatIntervalMs: 3_600_000,
    logger: silent,
  });
  rig = { engine, store, workers };
  return rig;
}

type TEvent = "drain" | "resume" | "sick" | "recovered";
const EVENTS: readonly TEvent[] = ["drain", "resume", "sick", "recovered"];

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, index) =>
    permutations([...items.slice(0, index), ...items.slice(index + 1)]).map((rest) => [item, ...rest]),
  );
}

/** Each event as it reaches a worker: an admin's drain/resume through the store, seen at the next beat; the sandbox watch's calls. */
async function apply(event: TEvent, { store, workers }: Rig): Promise<void> {
  switch (event) {
    case "drain":
    case "resume":
      await store.setDraining(WORKER_ID, event === "drain");
      await workers.heartbeat?.beat();
      return;
    case "sick":
      workers.initGate.hold("sandboxes");
      return;
    case "recovered":
      workers.initGate.release("sandboxes");
      return;
  }
}

const initSlots = (engine: RolloutEngine) => engine.stats().stages.init.concurrency;

describe("the INIT gate of a worker", () => {
  it("gives INIT its slots only when no reason holds it", () => {
    expect(initCapacity(INIT_SLOTS, new Set())).toBe(INIT_SLOTS);
    expect(initCapacity(INIT_SLOTS, new Set(["draining"]))).toBe(0);
    expect(initCapacity(INIT_SLOTS, new Set(["sandboxes", "draining"]))).toBe(0);
  });

  // 24 orders of an admin's drain and resume and the host turning sick and recovering (a resume
  // before any drain, a recovery before any sickness change nothing): after each step INIT is
  // open exactly when the worker is neither drained nor sick.
  for (const order of permutations(EVENTS)) {
    it(`in the order ${order.join(", ")}`, async () => {
      const worker = await startRig();
      let isDrained = false;
      let isSick = false;
      for (const event of order) {
        await apply(event, worker);
        if (event === "drain" || event === "resume") isDrained = event === "drain";
        else isSick = event === "sick";
        const expected = isDrained || isSick ? 0 : INIT_SLOTS;
        expect(initSlots(worker.engine), `after ${event} in ${order.join(", ")}`).toBe(expected);
      }
      const holding = [isDrained && "draining", isSick && "sandboxes"].filter(Boolean);
      expect(worker.workers.initGate.reasons().sort()).toEqual(holding);
    });
  }

  // The orders in which the worker ends resumed and recovered: INIT has all its slots back.
  const endWell = permutations(EVENTS).filter(
    (order) =>
      order.indexOf("resume") > order.indexOf("drain") && order.indexOf("recovered") > order.indexOf("sick"),
  );
  for (const order of endWell) {
    it(`ends with every INIT slot after ${order.join(", ")}`, async () => {
      const worker = await startRig();
      for (const event of order) await apply(event, worker);
      expect(initSlots(worker.engine)).toBe(INIT_SLOTS);
      expect(worker.workers.initGate.isOpen).toBe(true);
    });
  }

  it("stays closed for a worker stopping, whatever recovers or is resumed", async () => {
    const worker = await startRig();
    await apply("sick", worker);
    await apply("drain", worker);
    worker.workers.initGate.hold("stopping");
    await apply("recovered", worker);
    await apply("resume", worker);
    expect(initSlots(worker.engine)).toBe(0);
    expect(worker.workers.initGate.reasons()).toEqual(["stopping"]);
  });

  it("restores the slots INIT had when the first reason closed it", async () => {
    const worker = await startRig();
    worker.engine.setConcurrency("init", 5);
    const gate = new InitGate(worker.engine);
    gate.hold("sandboxes");
    gate.hold("sandboxes");
    gate.hold("draining");
    gate.release("sandboxes");
    expect(initSlots(worker.engine)).toBe(0);
    gate.release("draining");
    gate.release("draining");
    expect(initSlots(worker.engine)).toBe(5);
    expect(gate.isOpen).toBe(true);
  });
});
