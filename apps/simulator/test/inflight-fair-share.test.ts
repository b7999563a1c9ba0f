// Fair sharing of inference in-flight capacity between runs, against the simulator over real HTTP:
// two runs of shares 3:1 keep more requests going than the backend's in-flight capacity; the pool
// holds the rest (nothing waits in the backend), serves both runs, and grants a higher-priority
// run's request the next slot that frees. The tests assert order and counts; the in-flight time
// ratio (3:1 within ±10 %) is real time and is measured by `npm run bench -- fair-share`. The
// polls below wait on the simulator's HTTP server.
import { type GenerationFlow, StickyRouter } from "@raas/engine";
import {
  type BackendGenerateRequest,
  createQwen3ModelFamily,
  HttpInferenceBackend,
  RoutedInferencePool,
  TokenConversation,
} from "@raas/inference";
import type { TPolicyState } from "@raas/shared";
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator } from "../src/index";

const family = createQwen3ModelFamily();
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** The backend's (and the pool's) in-flight capacity. */
const CAPACITY = 2;

const RUNS: Record<string, GenerationFlow> = {
  a: { flowId: "run-a", weight: 3, priority: 0 },
  b: { flowId: "run-b", weight: 1, priority: 0 },
  urgent: { flowId: "run-urgent", weight: 1, priority: 5 },
};

/** Job ids are `<run key>-<n>`. */
const flowOf = (jobId: string): GenerationFlow | null => RUNS[jobId.split("-")[0] as string] ?? null;

const sampling = { maxTokens: 512, seed: 3, stopTokenIds: [family.endOfTurnId] };

function promptOf(jobId: string): number[] {
  return [
    ...TokenConversation.start(family, [{ role: "user", content: `task_id: ${jobId}\nThink.` }]).promptIds,
  ];
}

/** Waits for an outcome (not a duration): polls `condition` until it holds. */
async function until(condition: () => boolean, what: string, timeoutMs = 120_000): Promise<void> {
  const startedAt = Date.now();
  while (!condition()) {
    if (Date.now() - startedAt > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

interface Finished {
  run: string;
  tokens: number;
}

describe("fair sharing of in-flight capacity between runs", () => {
  it("holds the backlog of two runs of shares 3:1 in the pool, serves both and grants a higher-priority run's request next", async () => {
    // ~20 thinking words (~30 tokens) at 4 ms a token: ~120 ms in flight per request.
    const sim = await startSimulator({
      policy: {
        kind: "scripted",
        default: { steps: [{ thinkingWords: 20, content: "ok" }], repeatLast: true },
      },
      latency: { prefillMsPerToken: 0, decodeMsPerToken: 4 },
      maxConcurrency: CAPACITY,
    });
    cleanups.push(() => sim.close());
    /** Owner (job id) of each request the backend was sent, in the order they were sent. */
    const sent: string[] = [];
    const ownerOfPrompt = new Map<string, string>();
    const pool = new RoutedInferencePool({
      router: new StickyRouter(),
      fairShare: {},
      streamGenerations: false,
      createBackend: (registration, client) =>
        new (class extends HttpInferenceBackend {
          override generate(request: BackendGenerateRequest) {
            sent.push(ownerOfPrompt.get(request.promptIds.join(",")) ?? "?");
            return super.generate(request);
          }
        })({
          id: registration.id,
          kind: registration.kind,
          baseUrl: registration.baseUrl,
          model: registration.modelName,
          client,
        }),
    });
    cleanups.push(() => pool.close());
    const share = () => pool.inflightShare()?.flows ?? [];
    // Taken when the urgent request arrives (its run is resolved right before it queues).
    let sentBefore = -1;
    let backloggedAtArrival: string[] = [];
    pool.resolveFlowsWith((jobId) => {
      if (jobId === "urgent-0") {
        sentBefore = sent.length;
        backloggedAtArrival = share()
          .filter((flow) => flow.waiting > 0)
          .map((flow) => flow.flowId);
      }
      return flowOf(jobId);
    });
    pool.registerBackend({
      id: "sim-0",
      kind: "vllm",
      baseUrl: sim.url,
      modelName: sim.modelName,
      maxConcurrency: CAPACITY,
    });

    // Each run keeps 6 jobs generating turn after turn: 12 requests for 2 slots.
    const stops: AbortController[] = [];
    const finished: Finished[] = [];
    const loop = async (jobId: string) => {
      const stop = new AbortController();
      stops.push(stop);
      const promptIds = promptOf(jobId);
      ownerOfPrompt.set(promptIds.join(","), jobId);
      while (!stop.signal.aborted) {
        try {
          const result = await pool.generate({ jobId, promptIds, sampling, signal: stop.signal });
          if (stop.signal.aborted) return;
          finished.push({ run: jobId.split("-")[0] as string, tokens: result.responseIds.length });
        } catch (error) {
          if (stop.signal.aborted) return;
          throw error;
        }
      }
    };
    const loops = ["a", "b"].flatMap((run) => Array.from({ length: 6 }, (_, i) => loop(`${run}-${i}`)));
    let maxBackendWaiting = 0;
    await until(() => {
      maxBackendWaiting = Math.max(maxBackendWaiting, sim.snapshot().waiting);
      return finished.length >= 60;
    }, "60 requests finished");

    // While both runs are backlogged, a request of the high-priority run arrives.
    const urgentPrompt = promptOf("urgent-0");
    ownerOfPrompt.set(urgentPrompt.join(","), "urgent-0");
    const urgent = await pool.generate({ jobId: "urgent-0", promptIds: urgentPrompt, sampling });
    expect(urgent.responseIds.length).toBeGreaterThan(0);
    for (const stop of stops) stop.abort();
    await Promise.all(loops);

    expect(backloggedAtArrival).toEqual(expect.arrayContaining(["run-a", "run-b"]));
    // The first request sent after it arrived was the urgent one.
    expect(sentBefore).toBeGreaterThan(0);
    expect(sent[sentBefore]).toBe("urgent-0");
    expect(pool.inflightShare()?.capacity).toBe(CAPACITY);

    // Both runs were served, the share-3 run more; every request the backend was sent is one the
    // pool granted (no request of a run, or the urgent one, reached it twice or unasked).
    const finishedOf = (run: string) => finished.filter((f) => f.run === run).length;
    expect(finished.every((f) => f.tokens > 0)).toBe(true);
    expect(finishedOf("b")).toBeGreaterThan(0);
    expect(finishedOf("a")).toBeGreaterThan(finishedOf("b"));
    expect(sent.filter((owner) => owner === "urgent-0")).toEqual(["urgent-0"]);
    expect(sent).not.toContain("?");
    // The pool held what the backend could not run: nothing waited in the backend's FIFO queue.
    expect(maxBackendWaiting).toBe(0);
  }, 300_000);

  it("sends nothing during a weight-sync pause: a request granted a freed slot meanwhile gives it back and waits at the gate", async () => {
    const sim = await startSimulator({
      policy: {
        kind: "scripted",
        default: { steps: [{ thinkingWords: 60, content: "ok" }], repeatLast: true },
      },
      latency: { prefillMsPerToken: 0, decodeMsPerToken: 3 },
      maxConcurrency: 1,
    });
    cleanups.push(() => sim.close());
    const pool = new RoutedInferencePool({
      router: new StickyRouter(),
      fairShare: {},
      streamGenerations: false,
    });
    cleanups.push(() => pool.close());
    pool.resolveFlowsWith(flowOf);
    pool.registerBackend({
      id: "sim-0",
      kind: "vllm",
      baseUrl: sim.url,
      modelName: sim.modelName,
      maxConcurrency: 1,
    });
    const policy = (weightVersion: number, isPaused: boolean): TPolicyState => ({
      policyId: "default",
      ownerId: null,
      weightVersion,
      isPaused,
      pauseMode: isPaused ? "wait" : null,
      pausedAtMs: isPaused ? Date.now() : null,
    });
    pool.applyPolicy(policy(1, false));

    const first = pool.generate({ jobId: "a-0", promptIds: promptOf("a-0"), sampling });
    await until(() => sim.snapshot().running === 1, "the first request runs");
    let second: { weightVersion: string | null; pausedMs?: number } | null = null;
    const secondCall = pool
      .generate({ jobId: "b-0", promptIds: promptOf("b-0"), sampling })
      .then((result) => {
        second = result;
        return result;
      });
    const waitingOf = (flowId: string) =>
      pool.inflightShare()?.flows.find((flow) => flow.flowId === flowId)?.waiting ?? 0;
    await until(() => waitingOf("run-b") === 1, "the second request waits for capacity");

    pool.applyPolicy(policy(1, true));
    expect((await first).weightVersion).toBe("1");
    // The freed slot went to the waiting request, which found the pause and gave it back.
    await until(
      () => pool.inflightShare()?.inFlight === 0 && waitingOf("run-b") === 0,
      "the slot is given back",
    );
    expect(second).toBeNull();
    // Granted once, charged nothing: it never reached the backend.
    expect(pool.inflightShare()?.flows.find((flow) => flow.flowId === "run-b")).toMatchObject({
      granted: 1,
      charged: 0,
    });
    expect(sim.snapshot()).toMatchObject({ requestsSucceeded: 1, running: 0, waiting: 0 });

    pool.applyPolicy(policy(2, false));
    const resumed = await secondCall;
    expect(resumed.weightVersion).toBe("2");
    expect(resumed.pausedMs).toBeGreaterThan(0);
    expect(sim.snapshot().requestsSucceeded).toBe(2);
  }, 120_000);
});
