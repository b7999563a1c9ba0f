// A backend that goes down mid-rollout and comes back on the same port: the routed pool rides the
// outage out (waits or fails over) within its budget; past the budget the turn fails as
// `inference`; cancellation ends the wait at once.
import { StickyRouter } from "@raas/engine";
import {
  createQwen3ModelFamily,
  type InferenceFailure,
  isInferenceFailure,
  RoutedInferencePool,
  TokenConversation,
} from "@raas/inference";
import { checkTokenDrift, type TTurn } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { type RunningSimulator, startSimulator } from "../src/index";

const family = createQwen3ModelFamily();
const tools = [{ name: "bash", description: "Run a shell command", parameters: { type: "object" } }];
const sampling = { maxTokens: 256, temperature: 1, seed: 5 };
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function simulator(decodeMsPerToken = 0): Promise<RunningSimulator> {
  const sim = await startSimulator({ latency: { prefillMsPerToken: 0, decodeMsPerToken } });
  cleanups.push(() => sim.close());
  return sim;
}

function pool(outageBudgetMs?: number): RoutedInferencePool {
  const created = new RoutedInferencePool({
    // A short open circuit so that the test does not wait 10 s for the half-open probe.
    router: new StickyRouter({ circuitBreaker: { failureThreshold: 3, openDurationMs: 200 } }),
    ...(outageBudgetMs === undefined ? {} : { outageBudgetMs }),
  });
  cleanups.push(() => created.close());
  return created;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function failureOf(promise: Promise<unknown>): Promise<InferenceFailure> {
  try {
    await promise;
  } catch (error) {
    if (isInferenceFailure(error)) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

/** A token-in/token-out conversation; `beforeTurn` may take the backend down before a turn. */
async function converse(
  target: RoutedInferencePool,
  jobId: string,
  turns: number,
  beforeTurn: (index: number) => Promise<void>,
): Promise<TTurn[]> {
  const conversation = TokenConversation.start(
    family,
    [{ role: "user", content: `task_id: ${jobId}\nList the repository.` }],
    { tools },
  );
  const recorded: TTurn[] = [];
  for (let index = 0; index < turns; index += 1) {
    await beforeTurn(index);
    const promptIds = [...conversation.promptIds];
    const result = await target.generate({ jobId, promptIds, sampling });
    conversation.appendResponse(result.responseIds, result.logprobs);
    recorded.push({
      ...result,
      jobId,
      index,
      promptIds,
      cachedPromptTokens: result.cachedPromptTokens ?? 0,
      text: null,
      createdAtMs: Date.now(),
    });
    conversation.appendMessages([{ role: "tool", content: `src\nREADME.md\nturn ${index}` }]);
  }
  return recorded;
}

/** Resolves once the simulator runs a request (polls its own counters). */
async function untilRunning(sim: RunningSimulator): Promise<void> {
  while (sim.snapshot().running === 0) await sleep(2);
}

describe("a backend restarting mid-rollout", () => {
  it("is waited for: a turn refused while it is down and a turn killed in flight both complete", async () => {
    const sim = await simulator(4);
    const target = pool();
    target.registerBackend({ id: "only", kind: "vllm", baseUrl: sim.url, modelName: sim.modelName });
    const outages: Promise<void>[] = [];
    const restartAfter = async (downMs: number) => {
      await sim.stopListening();
      await sleep(downMs);
      await sim.listenAgain();
    };
    const turns = await converse(target, "job-restart", 5, async (index) => {
      // Down between turns 1 and 2 (the next turn's connection is refused) …
      if (index === 2) outages.push(restartAfter(1_500));
      // … and while turn 3 runs (its request dies with the connection).
      if (index === 3) outages.push(untilRunning(sim).then(() => restartAfter(1_000)));
    });
    await Promise.all(outages);
    const counters = sim.snapshot();
    // Turn 3 was running when the server went down: the simulator aborted it, then served its retry.
    expect(counters).toMatchObject({ requestsSucceeded: 5, requestsAborted: 1 });
    expect(turns).toHaveLength(5);
    expect(turns.every((turn) => turn.backendId === "only" && turn.finishReason === "stop")).toBe(true);
    expect(checkTokenDrift(turns)).toMatchObject({ isConsistent: true, turnsChecked: 5 });
    const [view] = target.listBackends();
    expect(view!.stats.errors).toBeGreaterThanOrEqual(2);
    expect(view).toMatchObject({ inFlight: 0, stats: { requests: view!.stats.errors + 5 } });
  });

  it("fails over at once to another healthy backend", async () => {
    const [a, b] = [await simulator(), await simulator()];
    const target = pool();
    target.registerBackend({ id: "a", kind: "vllm", baseUrl: a.url, modelName: a.modelName });
    target.registerBackend({ id: "b", kind: "vllm", baseUrl: b.url, modelName: b.modelName });
    const turns = await converse(target, "job-failover", 4, async (index) => {
      if (index !== 2) return;
      const stickyId = target.listBackends().find((view) => view.stickyJobs === 1)?.id;
      await (stickyId === "a" ? a : b).stopListening();
    });
    expect(new Set(turns.slice(2).map((t) => t.backendId)).size).toBe(1);
    expect(turns[2]!.backendId).not.toBe(turns[0]!.backendId);
  });

  it("fails the turn as inference once the outage budget is spent", async () => {
    const sim = await simulator();
    const target = pool(300);
    target.registerBackend({ id: "gone", kind: "sglang", baseUrl: sim.url, modelName: sim.modelName });
    await sim.stopListening();
    const failure = await failureOf(
      target.generate({ jobId: "j", promptIds: [151_644, 872, 198], sampling }),
    );
    expect(failure).toMatchObject({
      failure: { kind: "inference", inference: { reason: "connection", backendId: "gone" } },
    });
    expect(failure.message).toMatch(/outage budget 300 ms/);
    expect(target.listBackends()[0]).toMatchObject({ inFlight: 0 });
  });

  it("stops waiting at once when the job is cancelled", async () => {
    const sim = await simulator();
    const target = pool(600_000);
    target.registerBackend({ id: "down", kind: "nemo-rl", baseUrl: sim.url, modelName: sim.modelName });
    await sim.stopListening();
    const controller = new AbortController();
    const pending = failureOf(
      target.generate({ jobId: "j", promptIds: [151_644, 872, 198], sampling, signal: controller.signal }),
    );
    while (target.listBackends()[0]!.stats.errors === 0) await sleep(5);
    controller.abort();
    expect(await pending).toMatchObject({ failure: { kind: "inference", inference: { reason: "aborted" } } });
  });
});
