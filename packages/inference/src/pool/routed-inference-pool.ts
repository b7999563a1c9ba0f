import type {
  BackendRegistration,
  BackendSnapshot,
  BackendView,
  GenerateRequest,
  GenerateResult,
  GenerationFlowResolver,
  GenerationPolicyResolver,
  InferenceBackendRegistry,
  InferencePool,
  InferenceRouter,
  PolicySink,
  ScorePromptRequest,
  ScorePromptResult,
} from "@raas/engine";
import { DEFAULT_POLICY_ID, requestFailure, type TPolicyState } from "@raas/shared";
import { HttpInferenceBackend } from "../backends/http-inference-backend";
import { BACKEND_KINDS, type InferenceBackend } from "../backends/inference-backend.types";
import { JsonHttpClient } from "../http/json-http-client";
import { type InferenceFailure, inferenceFailure } from "../inference-failure";
import { attemptBackend, type DispatchResult, type DispatchState, holdAtGate } from "./backend-attempt";
import { finishReasonOfPartial, type GenerationPiece, mergeGenerationPieces } from "./continued-generation";
import {
  type InflightFairShareOptions,
  InflightShareGate,
  type InflightShareSnapshot,
  type InflightTicket,
} from "./inflight-share-gate";
import { DEFAULT_OUTAGE_BUDGET_MS, outageExhausted, outageWaitMs, waitOutOutage } from "./outage-wait";
import { PolicyGate } from "./policy-gate";
import { scorePromptOnTeacher } from "./prompt-scoring";

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
  /**
   * Stream generations where the wire protocol can (vLLM `/v1/completions`), so that an
   * `abort-and-continue` pause keeps the tokens of running requests. Default true. SGLang and
   * NeMo-RL `/generate` never stream here: under `abort-and-continue` their running requests
   * finish as under `wait`.
   */
  streamGenerations?: boolean;
  /** Default max concurrency of registrations that give none. Default 64. */
  defaultMaxConcurrency?: number;
  /**
   * Share the backends' in-flight capacity (the sum of their `maxConcurrency`) fairly between
   * training runs: while it is taken, requests wait here and are granted in weighted-fair order
   * by their run's share and priority (the engine hands the pool each job's run through
   * `resolveFlowsWith`; requests of no run form one class). Default off: every request is sent at
   * once and waits, first come first served, in the backend's own queue.
   */
  fairShare?: InflightFairShareOptions;
  now?: () => number;
}

/**
 * The `InferencePool` over registered backends: asks the engine's `StickyRouter` where each turn
 * goes, calls the backend, reports the outcome back (in-flight always decremented), rides out
 * outages (another backend at once, else waits within the outage budget; cancellation ends the
 * wait at once), and turns everything else into an `InferenceFailure`. As a `PolicySink` it holds
 * generation at a gate during weight syncs and stamps backends with the policy's weight version —
 * one gate and one version per policy: a job's turns go only to its policy's backends (the engine
 * hands the pool each job's policy through `resolvePoliciesWith`) and wait only at its gate.
 */
export class RoutedInferencePool implements InferencePool, InferenceBackendRegistry, PolicySink {
  private readonly router: InferenceRouter;
  private readonly client: JsonHttpClient;
  private readonly ownsClient: boolean;
  private readonly backends = new Map<
    string,
    { backend: InferenceBackend; registration: Required<BackendRegistration> }
  >();
  private readonly now: () => number;
  /** One weight-sync gate per policy (created on first use, open). */
  private readonly gates = new Map<string, PolicyGate>();
  /** Null unless `fairShare` was given. */
  private readonly share: InflightShareGate | null;
  /** Each policy's weight version (`applyPolicy`); registrations of that policy that name none get it. */
  private readonly policyWeightVersions = new Map<string, string>();
  /** The policy of a job's requests; default: every job is the default policy's. */
  private policyOf: GenerationPolicyResolver = () => null;

  constructor(private readonly options: RoutedInferencePoolOptions) {
    this.router = options.router;
    this.ownsClient = options.client === undefined;
    this.client = options.client ?? new JsonHttpClient();
    this.now = options.now ?? Date.now;
    this.share = options.fairShare
      ? new InflightShareGate(options.fairShare, () => this.inflightCapacity(), this.now)
      : null;
  }

  /** How to find the run of a job's requests (the engine calls it); unused with `fairShare` off. */
  resolveFlowsWith(flowOf: GenerationFlowResolver): void {
    this.share?.resolveFlowsWith(flowOf);
  }

  /** How to find the policy of a job's requests (the engine calls it). */
  resolvePoliciesWith(policyOf: GenerationPolicyResolver): void {
    this.policyOf = policyOf;
  }

  /** In-flight capacity, what is granted and each run's share of it; null with `fairShare` off. */
  inflightShare(): InflightShareSnapshot | null {
    return this.share?.snapshot() ?? null;
  }

  /**
   * Generates, waiting at the weight-sync gate while paused. A request interrupted by an
   * `abort-and-continue` pause hands over its tokens; after the resume the generation goes on from
   * them (prompt + tokens so far, the token budget reduced by them) until it finishes — never
   * failed or restarted from scratch by a pause.
   */
  async generate(request: GenerateRequest): Promise<GenerateResult> {
    const pieces: GenerationPiece[] = [];
    const generated: number[] = [];
    // Time held at the gate moves the call's deadline: a pause is not the backend's slowness.
    let deadlineMs = request.deadlineMs ?? this.now() + (this.options.defaultTimeoutMs ?? 600_000);
    let pausedMs = 0;
    for (;;) {
      const attempt = await this.dispatch({
        ...request,
        promptIds: generated.length === 0 ? request.promptIds : [...request.promptIds, ...generated],
        sampling: { ...request.sampling, maxTokens: request.sampling.maxTokens - generated.length },
        deadlineMs,
      });
      pausedMs += attempt.pausedMs;
      deadlineMs += attempt.pausedMs;
      pieces.push(attempt.piece);
      generated.push(...attempt.piece.responseIds);
      if (!attempt.isInterrupted) break;
      const finishReason = finishReasonOfPartial(generated, request.sampling);
      if (finishReason !== null) {
        attempt.piece.finishReason = finishReason;
        break;
      }
    }
    return mergeGenerationPieces(pieces, pausedMs);
  }

  /**
   * Scores a sequence on a teacher (on-policy distillation): a backend by id, or one of a teacher
   * policy's. Not held at any weight-sync gate: the teacher's weights are not being trained.
   */
  scorePrompt(request: ScorePromptRequest): Promise<ScorePromptResult> {
    return scorePromptOnTeacher(
      {
        router: this.router,
        now: this.now,
        backendOf: (backendId) => this.backends.get(backendId)?.backend,
        defaultTimeoutMs: this.options.defaultTimeoutMs ?? 600_000,
      },
      request,
    );
  }

  /**
   * Applies one policy's state: stamps that policy's backends with its weight version, pauses or
   * resumes its gate. Other policies' backends and gates are left alone.
   */
  applyPolicy(state: TPolicyState): void {
    if (state.weightVersion !== null) {
      const version = String(state.weightVersion);
      this.policyWeightVersions.set(state.policyId, version);
      for (const [id, entry] of this.backends) {
        if (entry.registration.policyId !== state.policyId) continue;
        if (entry.registration.weightVersion !== version) this.setWeightVersion(id, version);
      }
    }
    this.gateOf(state.policyId).apply(state);
  }

  /** True while the default policy's generation is paused for a weight sync. */
  get isPaused(): boolean {
    return this.isPolicyPaused(DEFAULT_POLICY_ID);
  }

  /** True while the policy's generation is paused for a weight sync. */
  isPolicyPaused(policyId: string): boolean {
    return this.gates.get(policyId)?.isPaused ?? false;
  }

  private gateOf(policyId: string): PolicyGate {
    let gate = this.gates.get(policyId);
    if (!gate) {
      gate = new PolicyGate();
      this.gates.set(policyId, gate);
    }
    return gate;
  }

  /** One request (with outage retries): the whole generation, or its tokens up to an interrupt. */
  private async dispatch(request: GenerateRequest & { deadlineMs: number }): Promise<DispatchResult> {
    // The job's policy: its backends are the only candidates, its gate the only one it waits at.
    const policyId = this.policyOf(request.jobId) ?? DEFAULT_POLICY_ID;
    const gate = this.gateOf(policyId);
    const budgetMs = this.options.outageBudgetMs ?? DEFAULT_OUTAGE_BUDGET_MS;
    const state: DispatchState = {
      deadlineMs: request.deadlineMs,
      pausedMs: 0,
      outageSinceMs: null,
      lastFailure: null,
      excluded: new Set(),
      waits: 0,
    };
    for (;;) {
      const heldMs = await gate.pass(request.jobId, request.signal, this.now);
      if (heldMs > 0) holdAtGate(state, heldMs);
      const ticket = this.share
        ? await this.share.enter(request.jobId, request.signal, state.deadlineMs)
        : null;
      if (ticket && gate.isPaused) {
        // Paused while it waited for capacity: back to the gate, charged nothing.
        this.share?.leave(ticket, false);
        continue;
      }
      const decision = this.router.acquire(request.jobId, this.now(), {
        excludeIds: state.excluded,
        policyId,
      });
      if (!decision) {
        if (ticket) this.share?.leave(ticket, false);
        await this.waitForBackend(request, policyId, state, budgetMs);
        continue;
      }
      const entry = this.backends.get(decision.backendId);
      if (!entry) throw this.clientMissing(decision.backendId, ticket);
      try {
        const { backend, registration } = entry;
        const attempt = {
          backend,
          weightVersion: registration.weightVersion,
          request,
          gate,
          state,
          budgetMs,
        };
        const result = await attemptBackend({ router: this.router, now: this.now, ...attempt });
        if (result) return result;
      } finally {
        if (ticket) this.share?.leave(ticket);
      }
    }
  }

  /**
   * No backend can take the turn now: fails at once when none may recover, or past the outage
   * budget; else waits (backing off) and forgets the backends excluded so far.
   */
  private async waitForBackend(
    request: GenerateRequest & { deadlineMs: number },
    policyId: string,
    state: DispatchState,
    budgetMs: number,
  ): Promise<void> {
    if (state.excluded.size === 0 && !this.hasRecoverableBackend(policyId))
      throw state.lastFailure ?? this.noBackendFailure(policyId);
    state.outageSinceMs ??= this.now();
    const outageMs = this.now() - state.outageSinceMs;
    if (outageMs >= budgetMs) {
      const failure = state.lastFailure ?? this.noBackendFailure(policyId);
      throw outageExhausted(failure, outageMs, budgetMs);
    }
    const wait = {
      jobId: request.jobId,
      signal: request.signal,
      deadlineMs: state.deadlineMs,
      now: this.now,
    };
    await waitOutOutage(
      Math.min(outageWaitMs(this.options.retryBackoffMs ?? 100, state.waits), budgetMs - outageMs),
      wait,
    );
    state.waits += 1;
    state.excluded.clear();
  }

  /** The router chose a backend this pool has no client for: it and the ticket released, and an error. */
  private clientMissing(backendId: string, ticket: InflightTicket | null): InferenceFailure {
    this.router.release(backendId, { type: "aborted" }, this.now());
    if (ticket) this.share?.leave(ticket, false);
    return inferenceFailure("no-backend", `backend ${backendId} is routable but has no client`);
  }

  releaseJob(jobId: string): void {
    this.router.releaseJob(jobId);
  }

  registerBackend(input: BackendRegistration): { backend: BackendView; isCreated: boolean } {
    if (!BACKEND_KINDS.includes(input.kind)) {
      throw requestFailure(
        "VALIDATION_FAILED",
        `kind must be one of ${BACKEND_KINDS.join(", ")}, got ${input.kind}`,
      );
    }
    if (!/^https?:\/\/[^/]/.test(input.baseUrl)) {
      throw requestFailure("VALIDATION_FAILED", `baseUrl must be an http(s) URL, got ${input.baseUrl}`);
    }
    const policyId = input.policyId ?? DEFAULT_POLICY_ID;
    const registration: Required<BackendRegistration> = {
      ...input,
      policyId,
      weightVersion: input.weightVersion ?? this.policyWeightVersions.get(policyId) ?? null,
      maxConcurrency: input.maxConcurrency ?? this.options.defaultMaxConcurrency ?? 64,
    };
    const result = this.router.registerBackend(
      {
        id: registration.id,
        modelName: registration.modelName,
        weightVersion: registration.weightVersion,
        maxConcurrency: registration.maxConcurrency,
        policyId,
      },
      this.now(),
    );
    const create =
      this.options.createBackend ??
      ((r, client) =>
        new HttpInferenceBackend({
          id: r.id,
          kind: r.kind,
          baseUrl: r.baseUrl,
          model: r.modelName,
          client,
          stream: this.options.streamGenerations ?? true,
        }));
    this.backends.set(registration.id, { backend: create(registration, this.client), registration });
    this.share?.pump(true);
    return { backend: this.viewOf(result.backend), isCreated: result.isCreated };
  }

  listBackends(): BackendView[] {
    return this.router.listBackends(this.now()).map((snapshot) => this.viewOf(snapshot));
  }

  drainBackend(backendId: string): BackendView {
    const view = this.viewOf(this.router.drainBackend(backendId, this.now()));
    this.share?.pump(true);
    return view;
  }

  resumeBackend(backendId: string): BackendView {
    const view = this.viewOf(this.router.resumeBackend(backendId, this.now()));
    this.share?.pump(true);
    return view;
  }

  removeBackend(backendId: string): BackendView {
    const view = this.viewOf(this.router.removeBackend(backendId, this.now()));
    this.backends.delete(backendId);
    this.share?.pump(true);
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
        if (counters) this.router.recordBackendCounters(backend.id, counters, this.now());
      }),
    );
    // A circuit may have closed: room for waiting requests.
    this.share?.pump(true);
  }

  async close(): Promise<void> {
    if (this.ownsClient) await this.client.close();
  }

  private viewOf(snapshot: BackendSnapshot): BackendView {
    const registration = this.backends.get(snapshot.id)?.registration;
    return { ...snapshot, kind: registration?.kind ?? "vllm", baseUrl: registration?.baseUrl ?? "" };
  }

  /** Sum of `maxConcurrency` over the backends that can take traffic now. */
  private inflightCapacity(): number {
    let capacity = 0;
    for (const backend of this.router.listBackends(this.now())) {
      if (backend.lifecycle === "active" && backend.circuit !== "open" && this.backends.has(backend.id))
        capacity += backend.maxConcurrency;
    }
    return capacity;
  }

  /** An active backend of the policy whose circuit is open or half-open: it may take traffic again soon. */
  private hasRecoverableBackend(policyId: string): boolean {
    return this.router
      .listBackends(this.now())
      .some(
        (b) =>
          b.policyId === policyId &&
          b.lifecycle === "active" &&
          b.circuit !== "closed" &&
          this.backends.has(b.id),
      );
  }

  private noBackendFailure(policyId: string): InferenceFailure {
    const backends = this.router.listBackends(this.now()).filter((b) => b.policyId === policyId);
    const draining = backends.filter((b) => b.lifecycle !== "active").length;
    const open = backends.filter((b) => b.circuit !== "closed").length;
    return inferenceFailure(
      "no-backend",
      `no inference backend of policy ${policyId} can take the request: ${backends.length} registered, ${draining} draining, ${open} with open circuit`,
    );
  }
}
