import { STAGES, type TJob } from "@raas/shared";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { InferenceBackendRegistry } from "../backends.port";
import type { ControlPlaneEngine } from "../engine.port";
import type { ControlPlaneStoreHealth } from "../store-health.port";
import { registerBackendMetrics } from "./backend-metrics";
import { registerStoreMetrics } from "./store-metrics";

/** Stage-duration buckets in seconds: from a fast INIT to an hour-long RUN. */
const STAGE_DURATION_BUCKETS_SEC = [
  0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600,
];
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
    const { engine } = options;
    const registers = [this.registry];
    if (options.collectProcessMetrics ?? true) collectDefaultMetrics({ register: this.registry });
    if (options.backends) registerBackendMetrics(this.registry, options.backends);
    if (options.storeHealth) registerStoreMetrics(this.registry, options.storeHealth);
    const { liveSubscriptions } = options;
    if (liveSubscriptions) {
      new Gauge({
        name: "raas_live_subscriptions",
        help: "Open live subscriptions (SSE streams), capped by maxSubscribers.",
        registers,
        collect() {
          this.set(liveSubscriptions());
        },
      });
    }

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
    stageGauge(
      "raas_stage_concurrency",
      "Concurrency limit of a stage pool.",
      (counts) => counts.concurrency,
    );
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

    const countJobs = options.countJobs ?? true;
    const jobRegisters = countJobs ? registers : [];
    const completed = new Counter({
      name: "raas_jobs_completed_total",
      help: "Jobs that completed (reward assigned), by handler kind.",
      labelNames: ["handler"] as const,
      registers: jobRegisters,
    });
    const failed = new Counter({
      name: "raas_jobs_failed_total",
      help: "Jobs that failed, by failure kind, the stage they failed in, and handler kind.",
      labelNames: ["failure_kind", "stage", "handler"] as const,
      registers: jobRegisters,
    });
    const tampered = new Counter({
      name: "raas_jobs_tampered_total",
      help: "Jobs whose grade was voided because a grader's canary tests reported a false outcome (failure label `tampered`: reward 0, trainable), by the stage they failed in and handler kind. Also counted in raas_jobs_failed_total as kind agent.",
      labelNames: ["stage", "handler"] as const,
      registers: jobRegisters,
    });
    const cancelled = new Counter({
      name: "raas_jobs_cancelled_total",
      help: "Jobs cancelled by a caller, by the stage they were in.",
      labelNames: ["stage", "handler"] as const,
      registers: jobRegisters,
    });
    const stageDuration = new Histogram({
      name: "raas_stage_duration_seconds",
      help: "Time inside a stage (queue time excluded), by stage and outcome (ok or failure kind).",
      labelNames: ["stage", "outcome"] as const,
      buckets: STAGE_DURATION_BUCKETS_SEC,
      registers,
    });
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
          if (!this.#isFirstTerminal(job)) return;
          const stage = job.failure?.stage ?? job.stage ?? "none";
          if (job.status === "completed") completed.inc({ handler: job.kind });
          else if (job.status === "cancelled") cancelled.inc({ stage, handler: job.kind });
          else {
            failed.inc({ failure_kind: job.failure?.kind ?? "unknown", stage, handler: job.kind });
            if (job.failure?.label === "tampered") tampered.inc({ stage, handler: job.kind });
          }
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
