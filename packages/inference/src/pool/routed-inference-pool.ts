import type {
  BackendRegistration,
  BackendSnapshot,
  BackendView,
  GenerateRequest,
  GenerateResult,
  InferenceBackendRegistry,
  InferencePool,
  InferenceRouter,
} from "@raas/engine";
import { RaasError } from "@raas/shared";
import { HttpInferenceBackend } from "../backends/http-inference-backend";
import { BACKEND_KINDS, type InferenceBackend } from "../backends/inference-backend.types";
import { JsonHttpClient } from "../http/json-http-client";
import { InferenceFailure } from "../inference-failure";
import { DEFAULT_OUTAGE_BUDGET_MS, outageExhausted, outageWaitMs, waitOutOutage } from "./outage-wait";

export interface RoutedInferencePoolOptions {
  /** The engine's routing policy (its `StickyRouter`); the pool only executes its decisions. */
  router: InferenceRouter;
  /** Shared pooled HTTP client; default a new one (closed by `close()`). */
  client?: JsonHttpClient;
  /** Builds the backend for a registration; default an HTTP backend with the kind's codec. */
  createBackend?: (registration: Required<BackendRegistration>, client: JsonHttpClient) => InferenceBackend;
  /**
   * How long one turn rides out an outage (connection failures, 502/503/504) of every backend it
   * could use — failing over at once when another can take it, else waiting for one to come back —
   * before it fails as `inference`, in ms. Default `DEFAULT_OUTAGE_BUDGET_MS` (60 s); 0 fails at
   * the first outage no other backend can absorb.
   */
  outageBudgetMs?: number;
  /** First wait while no backend can take a turn, doubling up to 1 s, in ms. Default 100. */
  retryBackoffMs?: number;
  /** Deadline for requests that carry none, in ms from the call. Default 600_000. */
  defaultTimeoutMs?: number;
  /** Default max concurrency of registrations that give none. Default 64. */
  defaultMaxConcurrency?: number;
  now?: () => number;
}

/**
 * The `InferencePool` over registered backends: asks the engine's `StickyRouter` where each turn
 * goes, calls the backend, reports the outcome back (in-flight always decremented), rides out
 * outages (another backend at once, else waits within the outage budget; cancellation ends the
 * wait at once), and turns everything else into an `InferenceFailure`.
 */
export class RoutedInferencePool implements InferencePool, InferenceBackendRegistry {
  private readonly router: InferenceRouter;
  private readonly client: JsonHttpClient;
  private readonly ownsClient: boolean;
  private readonly backends = new Map<
    string,
    { backend: InferenceBackend; registration: Required<BackendRegistration> }
  >();
  private readonly now: () => number;

  constructor(private readonly options: RoutedInferencePoolOptions) {
    this.router = options.router;
    this.ownsClient = options.client === undefined;
    this.client = options.client ?? new JsonHttpClient();
    this.now = options.now ?? Date.now;
  }

  async generate(request: GenerateRequest): Promise<GenerateResult> {
    const deadlineMs = request.deadlineMs ?? this.now() + (this.options.defaultTimeoutMs ?? 600_000);
    const budgetMs = this.options.outageBudgetMs ?? DEFAULT_OUTAGE_BUDGET_MS;
    const wait = { jobId: request.jobId, signal: request.signal, deadlineMs, now: this.now };
    // Backends that just failed this turn: tried again only when no other one can take it.
    const excluded = new Set<string>();
    let outageSinceMs: number | null = null;
    let lastFailure: InferenceFailure | null = null;
    for (let waits = 0; ; ) {
      if (request.signal?.aborted)
        throw new InferenceFailure("aborted", `generation for job ${request.jobId} aborted`);
      const decision = this.router.acquire(request.jobId, this.now(), { excludeIds: excluded });
      if (!decision) {
        if (excluded.size === 0 && !this.hasRecoverableBackend())
          throw lastFailure ?? this.noBackendFailure();
        outageSinceMs ??= this.now();
        const outageMs = this.now() - outageSinceMs;
        if (outageMs >= budgetMs) {
          const failure = lastFailure ?? this.noBackendFailure();
          throw outageExhausted(failure, outageMs, budgetMs);
        }
        await waitOutOutage(
          Math.min(outageWaitMs(this.options.retryBackoffMs ?? 100, waits), budgetMs - outageMs),
          wait,
        );
        waits += 1;
        excluded.clear();
        continue;
      }
      const entry = this.backends.get(decision.backendId);
      if (!entry) {
        this.router.release(decision.backendId, { type: "aborted" }, this.now());
        throw new InferenceFailure(
          "no-backend",
          `backend ${decision.backendId} is routable but has no client`,
        );
      }
      const startedAt = this.now();
      try {
        const generation = await entry.backend.generate({
          promptIds: request.promptIds,
          sampling: request.sampling,
          signal: request.signal,
          deadlineMs,
        });
        const latencyMs = this.now() - startedAt;
        this.router.release(
          entry.backend.id,
          {
            type: "success",
            promptTokens: request.promptIds.length,
            cachedPromptTokens: generation.cachedPromptTokens,
            responseTokens: generation.responseIds.length,
            latencyMs,
          },
          this.now(),
        );
        return {
          responseIds: generation.responseIds,
          logprobs: generation.logprobs,
          finishReason: generation.finishReason,
          backendId: entry.backend.id,
          weightVersion: entry.registration.weightVersion,
          cachedPromptTokens: generation.cachedPromptTokens,
          latencyMs,
        };
      } catch (error) {
        const failure =
          error instanceof InferenceFailure
            ? error
            : new InferenceFailure("bad-response", `${entry.backend.id}: ${String(error)}`, {
                backendId: entry.backend.id,
                cause: error,
              });
        this.router.release(entry.backend.id, { type: outcomeTypeOf(failure) }, this.now());
        if (!failure.isRetryable) throw failure;
        lastFailure = failure;
        outageSinceMs ??= startedAt;
        const outageMs = this.now() - outageSinceMs;
        if (outageMs >= budgetMs) throw outageExhausted(failure, outageMs, budgetMs);
        excluded.add(entry.backend.id);
      }
    }
  }

  releaseJob(jobId: string): void {
    this.router.releaseJob(jobId);
  }

  registerBackend(input: BackendRegistration): { backend: BackendView; isCreated: boolean } {
    if (!BACKEND_KINDS.includes(input.kind)) {
      throw new RaasError(
        "VALIDATION_FAILED",
        `kind must be one of ${BACKEND_KINDS.join(", ")}, got ${input.kind}`,
      );
    }
    if (!/^https?:\/\/[^/]/.test(input.baseUrl)) {
      throw new RaasError("VALIDATION_FAILED", `baseUrl must be an http(s) URL, got ${input.baseUrl}`);
    }
    const registration: Required<BackendRegistration> = {
      ...input,
      weightVersion: input.weightVersion ?? null,
      maxConcurrency: input.maxConcurrency ?? this.options.defaultMaxConcurrency ?? 64,
    };
    const result = this.router.registerBackend(
      {
        id: registration.id,
        modelName: registration.modelName,
        weightVersion: registration.weightVersion,
        maxConcurrency: registration.maxConcurrency,
      },
      this.now(),
    );
    const create =
      this.options.createBackend ??
      ((r, client) =>
        new HttpInferenceBackend({ id: r.id, kind: r.kind, baseUrl: r.baseUrl, model: r.modelName, client }));
    this.backends.set(registration.id, { backend: create(registration, this.client), registration });
    return { backend: this.viewOf(result.backend), isCreated: result.isCreated };
  }

  listBackends(): BackendView[] {
    return this.router.listBackends(this.now()).map((snapshot) => this.viewOf(snapshot));
  }

  drainBackend(backendId: string): BackendView {
    return this.viewOf(this.router.drainBackend(backendId, this.now()));
  }

  resumeBackend(backendId: string): BackendView {
    return this.viewOf(this.router.resumeBackend(backendId, this.now()));
  }

  removeBackend(backendId: string): BackendView {
    const view = this.viewOf(this.router.removeBackend(backendId, this.now()));
    this.backends.delete(backendId);
    return view;
  }

  setWeightVersion(backendId: string, weightVersion: string | null): BackendView {
    const snapshot = this.router.setWeightVersion(backendId, weightVersion, this.now());
    const entry = this.backends.get(backendId);
    if (entry) entry.registration = { ...entry.registration, weightVersion };
    return this.viewOf(snapshot);
  }

  /**
   * One round of health checks: each backend's health endpoint feeds its circuit breaker, and its
   * `/metrics` prefix-cache counters (when exposed) are stored with its statistics.
   */
  async checkHealth(timeoutMs = 2_000): Promise<void> {
    await Promise.all(
      [...this.backends.values()].map(async ({ backend }) => {
        const isHealthy = await backend.checkHealth(timeoutMs);
        this.router.recordHealth(backend.id, isHealthy, this.now());
        if (!isHealthy) return;
        const counters = await backend.readReportedCounters(timeoutMs);
        if (counters) this.router.recordBackendCounters(backend.id, counters);
      }),
    );
  }

  async close(): Promise<void> {
    if (this.ownsClient) await this.client.close();
  }

  private viewOf(snapshot: BackendSnapshot): BackendView {
    const registration = this.backends.get(snapshot.id)?.registration;
    return { ...snapshot, kind: registration?.kind ?? "vllm", baseUrl: registration?.baseUrl ?? "" };
  }

  /** An active backend whose circuit is open or half-open: it may take traffic again soon. */
  private hasRecoverableBackend(): boolean {
    return this.router
      .listBackends(this.now())
      .some((b) => b.lifecycle === "active" && b.circuit !== "closed" && this.backends.has(b.id));
  }

  private noBackendFailure(): InferenceFailure {
    const backends = this.router.listBackends(this.now());
    const draining = backends.filter((b) => b.lifecycle !== "active").length;
    const open = backends.filter((b) => b.circuit !== "closed").length;
    return new InferenceFailure(
      "no-backend",
      `no inference backend can take the request: ${backends.length} registered, ${draining} draining, ${open} with open circuit`,
    );
  }
}

/** How a failure counts for the router: caller aborts and 4xx rejections say nothing about health. */
function outcomeTypeOf(failure: InferenceFailure): "failure" | "rejected" | "aborted" {
  if (failure.reason === "aborted") return "aborted";
  const status = failure.status;
  const isClientError = status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429;
  return isClientError ? "rejected" : "failure";
}
