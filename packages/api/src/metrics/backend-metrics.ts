import { Counter, Gauge, type Registry } from "prom-client";
import type { InferenceBackendRegistry } from "../backends.port";

type BackendLabels = "backend" | "model";

/**
 * Per-backend Prometheus series read from the registry at scrape time (no bookkeeping of its own):
 * in-flight load, health, drain state, inference busy fraction and slot utilisation,
 * request/error/token counters and the prefix-cache hit ratio. Labels: `backend` (id) and `model`. Counters restart from 0 when a backend is re-registered.
 */
export function registerBackendMetrics(
  registry: Registry,
  backends: Pick<InferenceBackendRegistry, "listBackends">,
): void {
  const registers = [registry];
  const labelNames = ["backend", "model"] as const;
  const gauge = (
    name: string,
    help: string,
    /** Null leaves the backend's series out (the value is unknown). */
    pick: (b: ReturnType<typeof backends.listBackends>[number]) => number | null,
  ) =>
    new Gauge<BackendLabels>({
      name,
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        for (const b of backends.listBackends()) {
          const value = pick(b);
          if (value !== null) this.set({ backend: b.id, model: b.modelName }, value);
        }
      },
    });
  const counter = (
    name: string,
    help: string,
    pick: (b: ReturnType<typeof backends.listBackends>[number]) => number,
  ) =>
    new Counter<BackendLabels>({
      name,
      help,
      labelNames,
      registers,
      collect() {
        this.reset();
        for (const b of backends.listBackends()) this.inc({ backend: b.id, model: b.modelName }, pick(b));
      },
    });

  gauge(
    "raas_backend_in_flight_requests",
    "Generation requests running on a backend now.",
    (b) => b.inFlight,
  );
  gauge(
    "raas_backend_sticky_jobs",
    "Jobs whose turns stick to a backend (prefix-cache reuse).",
    (b) => b.stickyJobs,
  );
  gauge("raas_backend_healthy", "1 while a backend's circuit is closed (it takes traffic), else 0.", (b) =>
    b.circuit === "closed" ? 1 : 0,
  );
  gauge("raas_backend_draining", "1 while a backend is draining or drained, else 0.", (b) =>
    b.lifecycle === "active" ? 0 : 1,
  );
  gauge(
    "raas_backend_prefix_cache_hit_ratio",
    "Cached prompt tokens / prompt tokens over a backend's successful requests whose cached count it reported (0..1); absent while none did.",
    (b) => b.stats.prefixCacheHitRate,
  );
  gauge(
    "raas_backend_inference_busy_fraction",
    "Share (0..1) of the stats window a backend had at least one request running (its own running gauge when it reports one, else this service's in-flight count); absent before any time has passed.",
    (b) => b.utilisation?.busyFraction ?? null,
  );
  gauge(
    "raas_backend_slot_utilisation",
    "Time-weighted mean of requests running over the stats window / the backend's maxConcurrency; absent before any time has passed.",
    (b) => b.utilisation?.slotUtilisation ?? null,
  );
  counter(
    "raas_backend_requests_total",
    "Generation requests a backend finished (any outcome).",
    (b) => b.stats.requests,
  );
  counter(
    "raas_backend_errors_total",
    "Generation requests that failed on a backend.",
    (b) => b.stats.errors,
  );
  counter(
    "raas_backend_prompt_tokens_total",
    "Prompt tokens sent to a backend.",
    (b) => b.stats.promptTokens,
  );
  counter(
    "raas_backend_cached_prompt_tokens_total",
    "Prompt tokens a backend served from its prefix cache.",
    (b) => b.stats.cachedPromptTokens,
  );
  counter(
    "raas_backend_unknown_cached_tokens_requests_total",
    "Successful requests whose cached prompt tokens the backend did not report (left out of the hit ratio).",
    (b) => b.stats.requestsWithUnknownCachedTokens,
  );
  counter("raas_backend_response_tokens_total", "Tokens a backend generated.", (b) => b.stats.responseTokens);
}
