import { STAGES } from "@raas/shared";
import { Gauge, Histogram, type Registry } from "prom-client";
import type { ControlPlaneEngine } from "../engine.port";

/** Stage-duration buckets in seconds: from a fast INIT to an hour-long RUN. */
const STAGE_DURATION_BUCKETS_SEC = [
  0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600,
];

/** `raas_live_subscriptions`, read at each scrape. */
export function registerLiveSubscriptionsGauge(registry: Registry, liveSubscriptions: () => number): void {
  new Gauge({
    name: "raas_live_subscriptions",
    help: "Open live subscriptions (SSE streams), capped by maxSubscribers.",
    registers: [registry],
    collect() {
      this.set(liveSubscriptions());
    },
  });
}

/** The engine's stage pools, throughput and token breaks, read from `engine.stats()` at each scrape. */
export function registerEngineGauges(registry: Registry, engine: ControlPlaneEngine): void {
  const registers = [registry];
  const stageGauge = (
    name: string,
    help: string,
    pick: (counts: { queued: number; active: number; concurrency: number }) => number,
  ) =>
    new Gauge({
      name,
      help,
      labelNames: ["stage"] as const,
      registers,
      collect() {
        const stats = engine.stats();
        for (const stage of STAGES) this.set({ stage }, pick(stats.stages[stage]));
      },
    });
  stageGauge("raas_stage_queued_jobs", "Jobs waiting in a stage queue.", (counts) => counts.queued);
  stageGauge("raas_stage_active_jobs", "Jobs running in a stage.", (counts) => counts.active);
  stageGauge("raas_stage_concurrency", "Concurrency limit of a stage pool.", (counts) => counts.concurrency);
  new Gauge({
    name: "raas_throughput_jobs_per_second",
    help: "Jobs reaching a terminal state per second over the engine's throughput window.",
    registers,
    collect() {
      this.set(engine.stats().throughputPerSec);
    },
  });
  new Gauge({
    name: "raas_trajectory_token_breaks",
    help: "Trajectories whose turns broke the token-in/token-out property as they were stored, since the server started (should stay 0).",
    registers,
    collect() {
      this.set(engine.stats().tokenBreaks);
    },
  });
}

export function createStageDurationHistogram(registry: Registry): Histogram<"stage" | "outcome"> {
  return new Histogram({
    name: "raas_stage_duration_seconds",
    help: "Time inside a stage (queue time excluded), by stage and outcome (ok or failure kind).",
    labelNames: ["stage", "outcome"] as const,
    buckets: STAGE_DURATION_BUCKETS_SEC,
    registers: [registry],
  });
}
