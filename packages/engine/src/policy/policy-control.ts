import {
  formatIssues,
  RaasError,
  type TPauseMode,
  type TPauseRequest,
  type TPolicyState,
  type TResumeRequest,
  ZPauseRequest,
  ZResumeRequest,
} from "@raas/shared";
import type { BatchStore } from "../ports/batch-store.port";
import { type Clock, systemClock } from "../ports/clock.port";

/**
 * Where a policy change takes effect: the inference pool of this process (gate generation, stamp
 * backends with the version) and, in distributed mode, a bus message that workers apply to theirs.
 */
export interface PolicySink {
  applyPolicy(state: TPolicyState): void | Promise<void>;
}

/** One sink applying a change to several (each in turn; one failing does not stop the others' turn). */
export function fanOutPolicy(...sinks: PolicySink[]): PolicySink {
  return {
    async applyPolicy(state) {
      const results = await Promise.allSettled(sinks.map(async (sink) => sink.applyPolicy(state)));
      const failed = results.find((r) => r.status === "rejected");
      if (failed) throw (failed as PromiseRejectedResult).reason;
    },
  };
}

const INITIAL: TPolicyState = { weightVersion: null, isPaused: false, pauseMode: null, pausedAtMs: null };

/**
 * The policy's weight version and weight-sync pause: stored (a restarted server keeps both) and
 * applied to every sink. The batch system stamps samples with `weightVersion` when it dispatches
 * them; staleness is counted in these versions.
 */
export class PolicyControl {
  #state: TPolicyState = { ...INITIAL };

  constructor(
    private readonly deps: {
      store: Pick<BatchStore, "getPolicyState" | "savePolicyState">;
      sinks: PolicySink[];
      clock?: Clock;
    },
  ) {}

  /** Loads the stored state and applies it to the sinks. */
  async start(): Promise<void> {
    this.#state = (await this.deps.store.getPolicyState()) ?? { ...INITIAL };
    await this.#apply();
  }

  get state(): TPolicyState {
    return { ...this.#state };
  }

  get weightVersion(): number | null {
    return this.#state.weightVersion;
  }

  /** Announces the weight version now served everywhere; versions only grow (a lower one is a 409). */
  async setWeightVersion(weightVersion: number): Promise<TPolicyState> {
    const current = this.#state.weightVersion;
    if (current !== null && weightVersion < current) {
      throw new RaasError(
        "CONFLICT",
        `weight version ${weightVersion} is older than the current ${current}; versions only grow`,
        { details: { current } },
      );
    }
    this.#state = { ...this.#state, weightVersion };
    return this.#commit();
  }

  /** Stops dispatching generation (a second pause only changes the mode). */
  async pause(request: TPauseRequest = {}): Promise<TPolicyState> {
    const parsed = ZPauseRequest.safeParse(request);
    if (!parsed.success) throw new RaasError("VALIDATION_FAILED", formatIssues(parsed.error.issues));
    const mode: TPauseMode = parsed.data.mode;
    const clock = this.deps.clock ?? systemClock;
    this.#state = {
      ...this.#state,
      isPaused: true,
      pauseMode: mode,
      pausedAtMs: this.#state.pausedAtMs ?? clock.now(),
    };
    return this.#commit();
  }

  /** Resumes generation, first recording the new weight version when one is given. */
  async resume(request: TResumeRequest = {}): Promise<TPolicyState> {
    const parsed = ZResumeRequest.safeParse(request);
    if (!parsed.success) throw new RaasError("VALIDATION_FAILED", formatIssues(parsed.error.issues));
    const { weightVersion } = parsed.data;
    if (
      weightVersion !== undefined &&
      this.#state.weightVersion !== null &&
      weightVersion < this.#state.weightVersion
    ) {
      throw new RaasError(
        "CONFLICT",
        `weight version ${weightVersion} is older than the current ${this.#state.weightVersion}`,
      );
    }
    this.#state = {
      weightVersion: weightVersion ?? this.#state.weightVersion,
      isPaused: false,
      pauseMode: null,
      pausedAtMs: null,
    };
    return this.#commit();
  }

  async #commit(): Promise<TPolicyState> {
    await this.deps.store.savePolicyState(this.#state);
    await this.#apply();
    return this.state;
  }

  async #apply(): Promise<void> {
    for (const sink of this.deps.sinks) await sink.applyPolicy(this.state);
  }
}
