// Weight-sync pauses of the routed pool against the simulator over real HTTP (vLLM /v1/completions,
// streamed): `wait` lets running generations finish and holds new ones until the resume;
// `abort-and-continue` stops a running generation, keeps its tokens and continues from them under
// the new weights; a cancelled call waiting at the gate ends at once. Each policy has its own gate
// and version: a pause of one policy holds none of another policy's jobs.
import { StickyRouter } from "@raas/engine";
import {
  createQwen3ModelFamily,
  type InferenceFailure,
  RoutedInferencePool,
  TokenConversation,
} from "@raas/inference";
import type { TPolicyState } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../src/index";

const family = createQwen3ModelFamily();
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** Long thinking (a few hundred tokens) at 3 ms a token: long enough to stop it mid-way. */
async function slowSimulator(): Promise<RunningSimulator> {
  const sim = await startSimulator({
    policy: {
      kind: "scripted",
      default: { steps: [{ thinkingWords: 250, content: "done" }], repeatLast: true },
    },
    latency: { prefillMsPerToken: 0, decodeMsPerToken: 3 },
    streamIntervalMs: 15,
  });
  cleanups.push(() => sim.close());
  return sim;
}

function poolFor(sim: RunningSimulator): RoutedInferencePool {
  const pool = new RoutedInferencePool({ router: new StickyRouter() });
  cleanups.push(() => pool.close());
  pool.registerBackend({ id: "sim-0", kind: "vllm", baseUrl: sim.url, modelName: sim.modelName });
  return pool;
}

const running = (weightVersion: number, policyId = "default"): TPolicyState => ({
  policyId,
  ownerId: null,
  weightVersion,
  isPaused: false,
  pauseMode: null,
  pausedAtMs: null,
});
const paused = (
  weightVersion: number,
  pauseMode: "wait" | "abort-and-continue",
  policyId = "default",
): TPolicyState => ({
  policyId,
  ownerId: null,
  weightVersion,
  isPaused: true,
  pauseMode,
  pausedAtMs: Date.now(),
});

function promptOf(jobId: string): number[] {
  return [
    ...TokenConversation.start(family, [{ role: "user", content: `task_id: ${jobId}\nThink.` }]).promptIds,
  ];
}

const sampling = { maxTokens: 2_048, seed: 7, stopTokenIds: [family.endOfTurnId] };

/** Waits for an outcome (not a duration): polls `condition` until it holds. */
async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const startedAt = Date.now();
  while (!condition()) {
    if (Date.now() - startedAt > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A promise with its settled state visible. */
function tracked<T>(promise: Promise<T>): { promise: Promise<T>; isSettled: () => boolean } {
  let isSettled = false;
  promise.then(
    () => {
      isSettled = true;
    },
    () => {
      isSettled = true;
    },
  );
  return { promise, isSettled: () => isSettled };
}

describe("weight-sync pause of the routed pool", () => {
  it("wait: running generations finish, new ones are held (nothing sent) until the resume", async () => {
    const sim = await slowSimulator();
    const pool = poolFor(sim);
    pool.applyPolicy(running(1));
    const first = tracked(pool.generate({ jobId: "job-a", promptIds: promptOf("a"), sampling }));
    await until(() => sim.snapshot().generationTokens > 10, "the first generation streams tokens");

    pool.applyPolicy(paused(1, "wait"));
    const second = tracked(pool.generate({ jobId: "job-b", promptIds: promptOf("b"), sampling }));
    const a = await first.promise;
    expect(a.finishReason).toBe("stop");
    expect(a.weightVersion).toBe("1");
    expect(a.weightVersionSpans).toBeUndefined();
    // The held call sent nothing: the simulator saw only the first request.
    expect(second.isSettled()).toBe(false);
    expect(sim.snapshot()).toMatchObject({ requestsSucceeded: 1, requestsAborted: 0, running: 0 });
    expect(sim.snapshot().generationTokens).toBe(a.responseIds.length);

    pool.applyPolicy(running(2));
    const b = await second.promise;
    expect(b.finishReason).toBe("stop");
    expect(b.weightVersion).toBe("2");
    expect(b.pausedMs).toBeGreaterThan(0);
    expect(sim.snapshot()).toMatchObject({
      requestsSucceeded: 2,
      requestsAborted: 0,
      generationTokens: a.responseIds.length + b.responseIds.length,
    });
  });

  it("abort-and-continue: stops a long generation mid-way, keeps its tokens and continues them after the resume", async () => {
    const sim = await slowSimulator();
    const pool = poolFor(sim);
    pool.applyPolicy(running(1));
    const promptIds = promptOf("long");
    const call = tracked(pool.generate({ jobId: "job-long", promptIds, sampling }));
    await until(() => sim.snapshot().generationTokens >= 40, "the generation is well under way");

    pool.applyPolicy(paused(1, "abort-and-continue"));
    await until(() => sim.snapshot().requestsAborted === 1 && sim.snapshot().running === 0, "it is stopped");
    const partialTokens = sim.snapshot().generationTokens;
    expect(call.isSettled()).toBe(false);

    // The new weights are loaded; the resume announces them.
    pool.applyPolicy(running(2));
    const result = await call.promise;
    const produced = sim.snapshot().generationTokens;

    // Nothing discarded: every token the backend produced is in the result, exactly once.
    expect(result.responseIds).toHaveLength(produced);
    expect(result.logprobs).toHaveLength(produced);
    expect(partialTokens).toBeGreaterThanOrEqual(40);
    expect(produced).toBeGreaterThan(partialTokens);
    expect(result.finishReason).toBe("stop");
    expect(result.weightVersion).toBe("2");
    expect(result.weightVersionSpans).toEqual([
      { start: 0, end: partialTokens, weightVersion: "1" },
      { start: partialTokens, end: produced, weightVersion: "2" },
    ]);
    expect(sim.snapshot()).toMatchObject({ requestsAborted: 1, requestsSucceeded: 1 });

    // The partial is the start of what the first request would have produced, and the
    // continuation is what the backend answers to prompt + partial with the budget reduced by it.
    const partial = result.responseIds.slice(0, partialTokens);
    const direct = new RoutedInferencePool({ router: new StickyRouter(), streamGenerations: false });
    cleanups.push(() => direct.close());
    direct.registerBackend({ id: "sim-direct", kind: "vllm", baseUrl: sim.url, modelName: sim.modelName });
    const whole = await direct.generate({ jobId: "direct-1", promptIds, sampling });
    expect(whole.responseIds.slice(0, partialTokens)).toEqual(partial);
    const continued = await direct.generate({
      jobId: "direct-2",
      promptIds: [...promptIds, ...partial],
      sampling: { ...sampling, maxTokens: sampling.maxTokens - partialTokens },
    });
    expect(result.responseIds.slice(partialTokens)).toEqual(continued.responseIds);
    expect(result.logprobs.slice(partialTokens)).toEqual(continued.logprobs);
  });

  it("a cancelled call waiting at the gate ends at once, and nothing reaches the backend", async () => {
    const sim = await slowSimulator();
    const pool = poolFor(sim);
    pool.applyPolicy(paused(3, "abort-and-continue"));
    const controller = new AbortController();
    const call = pool.generate({
      jobId: "job-c",
      promptIds: promptOf("c"),
      sampling,
      signal: controller.signal,
    });
    controller.abort();
    // Never resumed: it can only end because the cancellation ended its wait.
    const failure = (await call.catch((error: unknown) => error)) as InferenceFailure;
    expect(failure).toMatchObject({ failure: { kind: "inference", inference: { reason: "aborted" } } });
    expect(sim.snapshot()).toMatchObject({ requestsSucceeded: 0, requestsAborted: 0, generationTokens: 0 });
    expect(pool.isPaused).toBe(true);
  });

  it("stamps every backend with the policy's weight version, later registrations too unless they name one", async () => {
    const sim = await slowSimulator();
    const pool = poolFor(sim);
    pool.applyPolicy(running(4));
    pool.registerBackend({ id: "sim-1", kind: "vllm", baseUrl: sim.url, modelName: sim.modelName });
    pool.registerBackend({
      id: "sim-2",
      kind: "vllm",
      baseUrl: sim.url,
      modelName: sim.modelName,
      weightVersion: "own",
    });
    const versions = Object.fromEntries(pool.listBackends().map((b) => [b.id, b.weightVersion]));
    expect(versions).toEqual({ "sim-0": "4", "sim-1": "4", "sim-2": "own" });
    pool.applyPolicy(running(5));
    expect(pool.listBackends().map((b) => b.weightVersion)).toEqual(["5", "5", "5"]);
  });

  it("pauses and versions one policy only: another policy's jobs keep generating on their own backends", async () => {
    const [simA, simB] = [await slowSimulator(), await slowSimulator()];
    const pool = new RoutedInferencePool({ router: new StickyRouter() });
    cleanups.push(() => pool.close());
    const policyOf = new Map([
      ["job-a", "run-a"],
      ["job-b", "run-b"],
    ]);
    pool.resolvePoliciesWith((jobId) => policyOf.get(jobId) ?? null);
    const backend = (id: string, sim: RunningSimulator, policyId: string) =>
      pool.registerBackend({ id, kind: "vllm", baseUrl: sim.url, modelName: sim.modelName, policyId });
    backend("sim-a", simA, "run-a");
    backend("sim-b", simB, "run-b");
    pool.applyPolicy(running(0, "run-a"));
    pool.applyPolicy(running(20, "run-b"));
    expect(Object.fromEntries(pool.listBackends().map((b) => [b.id, [b.policyId, b.weightVersion]]))).toEqual(
      {
        "sim-a": ["run-a", "0"],
        "sim-b": ["run-b", "20"],
      },
    );

    pool.applyPolicy(paused(0, "wait", "run-a"));
    const held = tracked(pool.generate({ jobId: "job-a", promptIds: promptOf("a"), sampling }));
    // Run b's generation goes through while run a is paused, on run b's backend only.
    const b = await pool.generate({ jobId: "job-b", promptIds: promptOf("b"), sampling });
    expect(b).toMatchObject({ backendId: "sim-b", weightVersion: "20", finishReason: "stop" });
    expect(b.pausedMs ?? 0).toBe(0);
    expect(held.isSettled()).toBe(false);
    expect(simA.snapshot().requestsSucceeded + simA.snapshot().running).toBe(0);
    expect([pool.isPolicyPaused("run-a"), pool.isPolicyPaused("run-b")]).toEqual([true, false]);

    pool.applyPolicy(running(1, "run-a"));
    const a = await held.promise;
    expect(a).toMatchObject({ backendId: "sim-a", weightVersion: "1", finishReason: "stop" });
    expect(pool.listBackends().find((entry) => entry.id === "sim-b")?.weightVersion).toBe("20");
    // A job of no policy of these finds no default-policy backend.
    await expect(pool.generate({ jobId: "job-c", promptIds: promptOf("c"), sampling })).rejects.toMatchObject(
      { failure: { kind: "inference", inference: { reason: "no-backend" } } },
    );
  });
});
