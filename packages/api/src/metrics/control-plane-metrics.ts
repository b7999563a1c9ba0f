import type { TJob } from "@raas/shared";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import type { InferenceBackendRegistry } from "../backends.port";
import type { ControlPlaneEngine } from "../engine.port";
import type { ControlPlaneStoreHealth } from "../store-health.port";
import { registerBackendMetrics } from "./backend-metrics";
import {
  createStageDurationHistogram,
  registerEngineGauges,
  registerLiveSubscriptionsGauge,
} from "./engine-metrics";
import { createJobOutcomeCounter } from "./job-outcome-metrics";
import { registerStoreMetrics } from "./store-metrics";

/** Terminal job ids remembered so a repeated terminal event is not counted twice. */
const MAX_REMEMBERED_TERMINAL_IDS = 100_000;

export interface ControlPlaneMetricsOptions {
  engine: ControlPlaneEngine;
  /** Also export Node process metrics (memory, CPU, event-loop lag). Default true. */
  collectProcessMetrics?: boolean;
  /** Inference backends to export per-backend series for. Default none. */
  backends?: Pick<InferenceBackendRegistry, "listBackends">;
  /**
   * Count jobs reaching a terminal state (`raas_jobs_{completed,failed,tampered,cancelled}_total`) from the
   * engine's job events. Default true. A distributed-mode worker passes false: it hears every
   * process's job events through the bus, so its counts would repeat the server's.
   */
  countJobs?: boolean;
  /** How many live subscriptions (SSE streams) are open, read at each scrape. Default: not exported. */
  liveSubscriptions?: () => number;
  /** This process's store health, exported as `raas_store_*`. Default: not exported. */
  storeHealth?: ControlPlaneStoreHealth;
}

/**
 * Prometheus metrics of one server instance, in its own `Registry` (never the global one, so
 * several servers in one process do not collide).
 */
export class ControlPlaneMetrics {
  readonly registry = new Registry();
  readonly #unsubscribers: Array<() => void> = [];
  readonly #countedTerminal = new Set<string>();
  readonly #httpRequests: Counter<"route" | "method" | "status">;
  readonly #httpDuration: Histogram<"route" | "method">;

  constructor(options: ControlPlaneMetricsOptions) {
    const { engine, liveSubscriptions } = options;
    const registers = [this.registry];
    // Registered in the order of the exposition text.
    if (options.collectProcessMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    if (options.backends) registerBackendMetrics(this.registry, options.backends);
    if (options.storeHealth) registerStoreMetrics(this.registry, options.storeHealth);
    if (liveSubscriptions) registerLiveSubscriptionsGauge(this.registry, liveSubscriptions);
    registerEngineGauges(this.registry, engine);
    const countJobs = options.countJobs ?? true;
    const countOutcome = createJobOutcomeCounter(countJobs ? registers : []);
    const stageDuration = createStageDurationHistogram(this.registry);
    this.#httpRequests = new Counter({
      name: "raas_http_requests_total",
      help: "HTTP requests served, by route template, method and status.",
      labelNames: ["route", "method", "status"] as const,
      registers,
    });
    this.#httpDuration = new Histogram({
      name: "raas_http_request_duration_seconds",
      help: "HTTP request latency by route template and method (long-polls and streams included).",
      labelNames: ["route", "method"] as const,
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 60],
      registers,
    });
    if (countJobs) {
      this.#unsubscribers.push(
        engine.subscribe(({ job }) => {
          if (this.#isFirstTerminal(job)) countOutcome(job);
        }),
      );
    }
    this.#unsubscribers.push(
      engine.onStageFinished((event) => {
        stageDuration.observe({ stage: event.stage, outcome: event.outcome }, event.durationMs / 1_000);
      }),
    );
  }

  /** Records one served HTTP request; `route` is a template (`/api/v1/jobs/{id}`), never a raw path. */
  observeRequest(route: string, method: string, status: number, durationMs: number): void {
    this.#httpRequests.inc({ route, method, status: String(status) });
    this.#httpDuration.observe({ route, method }, durationMs / 1_000);
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  close(): void {
    for (const unsubscribe of this.#unsubscribers.splice(0)) unsubscribe();
    this.registry.clear();
  }

  #isFirstTerminal(job: TJob): boolean {
    if (job.status !== "completed" && job.status !== "failed" && job.status !== "cancelled") return false;
    if (this.#countedTerminal.has(job.id)) return false;
    this.#countedTerminal.add(job.id);
    if (this.#countedTerminal.size > MAX_REMEMBERED_TERMINAL_IDS) {
      const oldest = this.#countedTerminal.values().next().value;
      if (oldest !== undefined) this.#countedTerminal.delete(oldest);
    }
    return true;
  }
}
