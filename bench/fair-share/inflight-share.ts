// In-flight time of two runs (shares 3:1) that keep more generation requests going than the
// simulator's capacity, through the routed pool's fair share (moved here from the simulator's test:
// the ratio is a measurement of real time, the test keeps the order and counts).
import { setMaxListeners } from "node:events";
import { type GenerationFlow, StickyRouter } from "@raas/engine";
import { createQwen3ModelFamily, RoutedInferencePool, TokenConversation } from "@raas/inference";
import { startSimulator } from "@raas/simulator";

export interface InflightShareResult {
  /** In-flight time of the share-3 run over the share-1 run's. */
  timeRatio: number;
  tokenRatio: number;
  requests: number;
}

const CAPACITY = 2;
const RUNS: Record<string, GenerationFlow> = {
  a: { flowId: "run-a", weight: 3, priority: 0 },
  b: { flowId: "run-b", weight: 1, priority: 0 },
};

/** Each run keeps 6 jobs generating turn after turn (12 requests for 2 slots) until `requests` ended. */
export async function measureInflightShare(options: { requests: number }): Promise<InflightShareResult> {
  const family = createQwen3ModelFamily();
  const sampling = { maxTokens: 512, seed: 3, stopTokenIds: [family.endOfTurnId] };
  // ~20 thinking words (~30 tokens) at 4 ms a token: ~120 ms in flight per request.
  const sim = await startSimulator({
    policy: {
      kind: "scripted",
      default: { steps: [{ thinkingWords: 20, content: "ok" }], repeatLast: true },
    },
    latency: { prefillMsPerToken: 0, decodeMsPerToken: 4 },
    maxConcurrency: CAPACITY,
  });
  const pool = new RoutedInferencePool({
    router: new StickyRouter(),
    fairShare: {},
    streamGenerations: false,
  });
  pool.resolveFlowsWith((jobId) => RUNS[jobId.split("-")[0] as string] ?? null);
  pool.registerBackend({
    id: "sim-0",
    kind: "vllm",
    baseUrl: sim.url,
    modelName: sim.modelName,
    maxConcurrency: CAPACITY,
  });
  const finished: Array<{ run: string; latencyMs: number; tokens: number }> = [];
  const stop = new AbortController();
  // Every request of the 12 loops listens on this one signal.
  setMaxListeners(64, stop.signal);
  let reached: () => void = () => {};
  const enough = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const loop = async (jobId: string) => {
    const promptIds = [
      ...TokenConversation.start(family, [{ role: "user", content: `task_id: ${jobId}\nThink.` }]).promptIds,
    ];
    while (!stop.signal.aborted) {
      try {
        const result = await pool.generate({ jobId, promptIds, sampling, signal: stop.signal });
        if (stop.signal.aborted) return;
        const run = jobId.split("-")[0] as string;
        finished.push({ run, latencyMs: result.latencyMs, tokens: result.responseIds.length });
        if (finished.length >= options.requests) reached();
      } catch (error) {
        if (stop.signal.aborted) return;
        throw error;
      }
    }
  };
  try {
    const loops = ["a", "b"].flatMap((run) => Array.from({ length: 6 }, (_, i) => loop(`${run}-${i}`)));
    await Promise.race([enough, Promise.all(loops)]);
    stop.abort();
    await Promise.all(loops);
  } finally {
    stop.abort();
    await pool.close();
    await sim.close();
  }
  const sum = (run: string, of: (f: (typeof finished)[number]) => number) =>
    finished.filter((f) => f.run === run).reduce((total, f) => total + of(f), 0);
  return {
    timeRatio: sum("a", (f) => f.latencyMs) / sum("b", (f) => f.latencyMs),
    tokenRatio: sum("a", (f) => f.tokens) / sum("b", (f) => f.tokens),
    requests: finished.length,
  };
}
