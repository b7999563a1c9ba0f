import { StickyRouter } from "@raas/engine";
import { ManualClock } from "@raas/engine/testing";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { registerBackendMetrics } from "./backend-metrics";

describe("registerBackendMetrics", () => {
  it("exposes each backend's inference busy fraction and slot utilisation as gauges", async () => {
    const clock = new ManualClock();
    const router = new StickyRouter({ statsWindowMs: 10_000 });
    router.registerBackend(
      { id: "sim-a", modelName: "m", weightVersion: null, maxConcurrency: 4 },
      clock.now(),
    );
    router.registerBackend(
      { id: "sim-b", modelName: "m", weightVersion: null, maxConcurrency: 4 },
      clock.now(),
    );
    await clock.advance(5_000);
    router.acquire("job-1", clock.now());
    router.acquire("job-2", clock.now());
    await clock.advance(5_000);
    const registry = new Registry();
    registerBackendMetrics(registry, {
      listBackends: () =>
        router.listBackends(clock.now()).map((b) => ({ ...b, kind: "vllm" as const, baseUrl: "http://sim" })),
    });
    const text = await registry.metrics();
    // Two jobs spread over two backends: each ran one request over the second half of the window.
    expect(text).toContain('raas_backend_inference_busy_fraction{backend="sim-a",model="m"} 0.5');
    expect(text).toContain('raas_backend_inference_busy_fraction{backend="sim-b",model="m"} 0.5');
    expect(text).toContain('raas_backend_slot_utilisation{backend="sim-a",model="m"} 0.125');
  });
});
