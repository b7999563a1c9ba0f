// A weight sync reaches a worker's own inference pool through Redis: the server's PolicyControl
// publishes (BusPolicySink), the worker follows (followPolicy) — a pause stops the worker's running
// generation and keeps its tokens, the resume continues it under the new version.
import { randomUUID } from "node:crypto";
import { StickyRouter } from "@raas/engine";
import { createQwen3ModelFamily, RoutedInferencePool, TokenConversation } from "@raas/inference";
import { RedisEventBus } from "@raas/queue";
import { startSimulator } from "@raas/simulator";
import { BusPolicySink, followPolicy, MemoryBatchStore, PolicyControl } from "@raas/training";
import { afterEach, expect, it } from "vitest";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const family = createQwen3ModelFamily();
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const startedAt = Date.now();
  while (!condition()) {
    if (Date.now() - startedAt > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

it("pauses (abort-and-continue) and resumes a worker's pool over the Redis bus, losing no token", async () => {
  const sim = await startSimulator({
    policy: {
      kind: "scripted",
      default: { steps: [{ thinkingWords: 250, content: "done" }], repeatLast: true },
    },
    latency: { prefillMsPerToken: 0, decodeMsPerToken: 3 },
    streamIntervalMs: 15,
  });
  cleanups.push(() => sim.close());
  const prefix = `raas-test-${randomUUID().slice(0, 8)}`;
  const serverBus = new RedisEventBus({ url: REDIS_URL, prefix });
  const workerBus = new RedisEventBus({ url: REDIS_URL, prefix });
  cleanups.push(
    () => serverBus.close(),
    () => workerBus.close(),
  );

  const workerPool = new RoutedInferencePool({ router: new StickyRouter() });
  cleanups.push(() => workerPool.close());
  workerPool.registerBackend({ id: "sim-0", kind: "vllm", baseUrl: sim.url, modelName: sim.modelName });
  const following = await followPolicy({ bus: workerBus, sink: workerPool });
  cleanups.push(() => following.stop());

  const control = new PolicyControl({ store: new MemoryBatchStore(), sinks: [new BusPolicySink(serverBus)] });
  await control.start();
  await control.setWeightVersion(8);
  await until(
    () => workerPool.listBackends()[0]?.weightVersion === "8",
    "the worker's backend serves version 8",
  );

  const promptIds = [
    ...TokenConversation.start(family, [{ role: "user", content: "task_id: bus\nThink." }]).promptIds,
  ];
  const sampling = { maxTokens: 2_048, seed: 3, stopTokenIds: [family.endOfTurnId] };
  const generation = workerPool.generate({ jobId: "job-bus", promptIds, sampling });
  await until(() => sim.snapshot().generationTokens >= 30, "the worker's generation is under way");

  await control.pause({ mode: "abort-and-continue" });
  await until(() => workerPool.isPaused && sim.snapshot().requestsAborted === 1, "the worker stopped it");
  const partialTokens = sim.snapshot().generationTokens;
  await control.resume({ weightVersion: 9 });

  const result = await generation;
  expect(result.responseIds).toHaveLength(sim.snapshot().generationTokens);
  expect(result.weightVersionSpans).toEqual([
    { start: 0, end: partialTokens, weightVersion: "8" },
    { start: partialTokens, end: result.responseIds.length, weightVersion: "9" },
  ]);
  expect(result.finishReason).toBe("stop");
  expect(workerPool.isPaused).toBe(false);
});
