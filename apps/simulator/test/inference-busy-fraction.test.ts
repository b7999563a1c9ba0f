// The service's inference busy fraction against the simulator's own report, over real HTTP: the
// routed pool reads the simulator's `/metrics` (vLLM's `vllm:num_requests_running`) at each health
// check and integrates it over its window; the simulator integrates its batch slots exactly at
// every change and reports the integral (`raas_simulator_busy_seconds_total`). The test drives
// concurrent generations and asserts the figure rises while they run, falls after, and agrees with
// the simulator's. Polls wait on outcomes (a health check seen, requests running), never durations.
import { StickyRouter } from "@raas/engine";
import { createQwen3ModelFamily, RoutedInferencePool, TokenConversation } from "@raas/inference";
import { afterEach, describe, expect, it } from "vitest";
import { startSimulator } from "../src/index";

const family = createQwen3ModelFamily();
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const SLOTS = 4;
const sampling = { maxTokens: 4_096, seed: 5, stopTokenIds: [family.endOfTurnId] };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const startedAt = Date.now();
  while (!condition()) {
    if (Date.now() - startedAt > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await sleep(5);
  }
}

describe("inference busy fraction", () => {
  it("rises while generations run, falls after, and agrees with the simulator's own report", async () => {
    // ~600 thinking words at 4 ms a token: each generation holds its slot for about 2.5 seconds.
    const sim = await startSimulator({
      policy: {
        kind: "scripted",
        default: { steps: [{ thinkingWords: 600, content: "ok" }], repeatLast: true },
      },
      latency: { prefillMsPerToken: 0, decodeMsPerToken: 4 },
      maxConcurrency: SLOTS,
    });
    cleanups.push(() => sim.close());
    const pool = new RoutedInferencePool({
      router: new StickyRouter({ statsWindowMs: 600_000 }),
      streamGenerations: false,
    });
    cleanups.push(() => pool.close());
    pool.registerBackend({
      id: "sim-0",
      kind: "vllm",
      baseUrl: sim.url,
      modelName: sim.modelName,
      maxConcurrency: SLOTS,
    });
    const utilisation = () => pool.listBackends()[0]?.utilisation ?? null;

    // Health checks (which read `/metrics`) back to back, as the server's interval would run them.
    let checks = 0;
    let isPolling = true;
    const poller = (async () => {
      while (isPolling) {
        await pool.checkHealth(5_000);
        checks += 1;
        await sleep(10);
      }
    })();
    cleanups.push(async () => {
      isPolling = false;
      await poller;
    });
    const afterChecks = async (n: number) => {
      const target = checks + n;
      await until(() => checks >= target, `${n} more health checks`);
    };

    // Idle: the backend reports its gauge, and nothing runs.
    await afterChecks(3);
    expect(utilisation()).toMatchObject({ source: "reported", busyFraction: 0, meanRunning: 0 });

    const generations = Array.from({ length: SLOTS }, (_, i) => {
      const promptIds = [
        ...TokenConversation.start(family, [{ role: "user", content: `task_id: busy-${i}\nThink.` }])
          .promptIds,
      ];
      return pool.generate({ jobId: `busy-${i}`, promptIds, sampling });
    });
    await until(() => sim.snapshot().running === SLOTS, "every slot runs");
    await afterChecks(2);
    const whileRunning = utilisation()?.busyFraction ?? 0;
    expect(whileRunning).toBeGreaterThan(0);
    await afterChecks(2);
    expect(sim.snapshot().running).toBe(SLOTS);
    const laterWhileRunning = utilisation()?.busyFraction ?? 0;
    expect(laterWhileRunning).toBeGreaterThan(whileRunning);

    const results = await Promise.all(generations);
    expect(results.every((r) => r.responseIds.length > 100)).toBe(true);
    await afterChecks(2);
    const atEnd = utilisation()?.busyFraction ?? 0;
    await afterChecks(20);
    const afterwards = utilisation();
    expect(afterwards?.busyFraction ?? 1).toBeLessThan(atEnd);
    isPolling = false;
    await poller;

    // The simulator ran nothing before the pool's first sample, so its integrals since start fall
    // within the pool's window: over the same span, busy and slot fractions agree (the pool samples
    // the gauge at each check, so each edge is off by at most a check's interval).
    const final = utilisation();
    const own = sim.snapshot();
    expect(final).not.toBeNull();
    if (!final) return;
    const coveredSeconds = final.coveredMs / 1_000;
    expect(own.busySeconds).toBeGreaterThan(2);
    expect(Math.abs(final.busyFraction - own.busySeconds / coveredSeconds)).toBeLessThan(0.1);
    expect(Math.abs(final.slotUtilisation - own.slotSeconds / coveredSeconds / SLOTS)).toBeLessThan(0.1);
    // The simulator's report over HTTP carries the same integrals and its capacity.
    const metrics = await fetch(`${sim.url}/metrics`).then((r) => r.text());
    expect(metrics).toMatch(/raas_simulator_busy_seconds_total\{[^}]*\} \d+(\.\d+)?/);
    expect(metrics).toContain(`raas_simulator_max_num_seqs{model_name="${sim.modelName}"} ${SLOTS}`);
    expect(metrics).toContain(
      `raas_simulator_decode_capacity_tokens_per_second{model_name="${sim.modelName}"} ${SLOTS * 250}`,
    );
  });
});
