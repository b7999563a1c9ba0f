// Image-aware placement through the engine: the handler's `imageOf` tags each job's INIT item
// with its image, and each worker's reserves name the images it holds (`heldImages`), so two
// workers sharing one queue each run the INITs of the image they hold.
import { afterEach, describe, expect, it } from "vitest";
import { HandlerRegistry } from "../src/handler-registry";
import { createSleepHandler, type TSleepPayload } from "../src/handlers/sleep-handler";
import { MemoryEventBus } from "../src/memory/memory-event-bus";
import { MemoryJobQueue } from "../src/memory/memory-job-queue";
import { MemoryJobStore } from "../src/memory/memory-job-store";
import { RolloutEngine } from "../src/rollout-engine";
import { jobReaches } from "./engine-harness";

/** The test's jobs name their image by their INIT time: 51 ms → img-a, 52 ms → img-b. */
const IMAGE_BY_INIT_MS: Record<number, string> = { 51: "img-a", 52: "img-b" };

const store = new MemoryJobStore();
// Longer than the test: no item is handed to a worker without its image for having waited.
const queue = new MemoryJobQueue({ placementMaxWaitMs: 600_000 });
const bus = new MemoryEventBus();
const started: RolloutEngine[] = [];
const initOn = new Map<string, string>();

async function worker(workerId: string, heldImages: string[]): Promise<RolloutEngine> {
  const sleep = createSleepHandler({
    onStage: (event) => {
      if (event.phase === "start" && event.stage === "init") initOn.set(event.jobId, workerId);
    },
  });
  const handlers = new HandlerRegistry().register({
    ...sleep,
    imageOf: (payload: TSleepPayload) => IMAGE_BY_INIT_MS[payload.initMs],
  });
  const pool = (concurrency: number) => ({ concurrency, timeoutMs: 10_000 });
  const engine = new RolloutEngine({
    store,
    queue,
    bus,
    handlers,
    workerId,
    heldImages: () => heldImages,
    recoverAtStart: "unheld",
    pools: { init: pool(1), run: pool(2), eval: pool(2) },
  });
  await engine.start();
  started.push(engine);
  return engine;
}

afterEach(async () => {
  for (const engine of started.splice(0)) await engine.stop({ graceMs: 0 });
});

describe("engine image-aware placement", () => {
  it("runs each job's INIT on the worker that holds its image", async () => {
    const a = await worker("wa", ["img-a"]);
    await worker("wb", ["img-b"]);
    const payloads = [51, 52, 51, 52, 52, 51].map((initMs) => ({ initMs, runMs: 1, evalMs: 1 }));
    const jobs = await Promise.all(payloads.map((payload) => a.submitJob({ kind: "sleep", payload })));
    for (const { job } of jobs) await jobReaches(a, job.id, (stored) => stored.status === "completed");
    const ran = jobs.map(({ job }) => [
      IMAGE_BY_INIT_MS[(job.payload as { initMs: number }).initMs],
      initOn.get(job.id),
    ]);
    expect(ran).toEqual(
      payloads.map(({ initMs }) => [IMAGE_BY_INIT_MS[initMs], initMs === 51 ? "wa" : "wb"]),
    );
  });
});
