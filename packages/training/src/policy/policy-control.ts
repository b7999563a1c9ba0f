import { type Clock, type PolicySink, systemClock } from "@raas/engine";
import {
  DEFAULT_POLICY_ID,
  formatIssues,
  initialPolicyState,
  requestFailure,
  type TPauseRequest,
  type TPolicyState,
  type TResumeRequest,
  ZPauseRequest,
  ZPolicyId,
  ZResumeRequest,
} from "@raas/shared";
import type { BatchStore } from "../ports/batch-store.port";

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

/**
 * The policies' weight versions and weight-sync pauses, one state per policy: stored (a restarted
 * server keeps them) and applied to every sink. A run names its policy; the batch system stamps
 * its samples with that policy's `weightVersion` when it dispatches them and counts staleness in
 * its versions, and a pause holds only that policy's generation. A policy nobody changed is in its
 * initial state (no owner, no version, running); the default policy always exists.
 *
 * Owners are recorded, not enforced, here: `claim` gives an unowned policy to a token, and the
 * control plane decides who may change which policy (its owner or an admin).
 */
export class PolicyControl {
  readonly #states = new Map<string, TPolicyState>();
  /** Changes of one policy run one after another (a claim and the write after it, two writers). */
  readonly #chains = new Map<string, Promise<unknown>>();

  constructor(
    private readonly deps: {
      store: Pick<BatchStore, "listPolicyStates" | "savePolicyState">;
      sinks: PolicySink[];
      clock?: Clock;
    },
  ) {}

  /** Loads the stored states and applies each (the default policy's too) to the sinks. */
  async start(): Promise<void> {
    this.#states.clear();
    for (const state of await this.deps.store.listPolicyStates()) this.#states.set(state.policyId, state);
    if (!this.#states.has(DEFAULT_POLICY_ID))
      this.#states.set(DEFAULT_POLICY_ID, initialPolicyState(DEFAULT_POLICY_ID));
    for (const state of this.#states.values()) await this.#apply(state);
  }

  /** The default policy's state (the single-run view). */
  get state(): TPolicyState {
    return this.stateOf(DEFAULT_POLICY_ID);
  }

  /** The default policy's weight version. */
  get weightVersion(): number | null {
    return this.weightVersionOf(DEFAULT_POLICY_ID);
  }

  /** A policy's state; a policy never changed is in its initial state. */
  stateOf(policyId: string): TPolicyState {
    return { ...(this.#states.get(policyId) ?? initialPolicyState(policyId)) };
  }

  /** A policy's weight version: what its samples are stamped with when dispatched. */
  weightVersionOf(policyId: string): number | null {
    return this.#states.get(policyId)?.weightVersion ?? null;
  }

  /** Every policy known (stored, or the default one), by id. */
  list(): TPolicyState[] {
    return [...this.#states.values()]
      .sort((a, b) => (a.policyId < b.policyId ? -1 : a.policyId > b.policyId ? 1 : 0))
      .map((state) => ({ ...state }));
  }

  /**
   * Gives an unowned policy to `ownerId` (stored); a policy with an owner keeps it. Returns the
   * policy's state either way.
   */
  async claim(policyId: string, ownerId: string): Promise<TPolicyState> {
    return this.#change(policyId, (state) => (state.ownerId === null ? { ...state, ownerId } : null));
  }

  /**
   * Announces the weight version the policy's backends now serve everywhere; versions only grow
   * (a lower one is a 409). `policyId` defaults to the default policy.
   */
  async setWeightVersion(weightVersion: number, policyId: string = DEFAULT_POLICY_ID): Promise<TPolicyState> {
    return this.#change(policyId, (state) => {
      if (state.weightVersion !== null && weightVersion < state.weightVersion) {
        throw requestFailure(
          "CONFLICT",
          `weight version ${weightVersion} of policy ${policyId} is older than the current ${state.weightVersion}; versions only grow`,
          { details: { policyId, current: state.weightVersion } },
        );
      }
      return { ...state, weightVersion };
    });
  }

  /** Stops dispatching the policy's generation (a second pause only changes the mode). */
  async pause(request: TPauseRequest = {}): Promise<TPolicyState> {
    const parsed = ZPauseRequest.safeParse(request);
    if (!parsed.success) throw requestFailure("VALIDATION_FAILED", formatIssues(parsed.error.issues));
    const { mode, policyId } = parsed.data;
    const clock = this.deps.clock ?? systemClock;
    return this.#change(policyId, (state) => ({
      ...state,
      isPaused: true,
      pauseMode: mode,
      pausedAtMs: state.pausedAtMs ?? clock.now(),
    }));
  }

  /** Resumes the policy's generation, first recording its new weight version when one is given. */
  async resume(request: TResumeRequest = {}): Promise<TPolicyState> {
    const parsed = ZResumeRequest.safeParse(request);
    if (!parsed.success) throw requestFailure("VALIDATION_FAILED", formatIssues(parsed.error.issues));
    const { weightVersion, policyId } = parsed.data;
    return this.#change(policyId, (state) => {
      if (
        weightVersion !== undefined &&
        state.weightVersion !== null &&
        weightVersion < state.weightVersion
      ) {
        throw requestFailure(
          "CONFLICT",
          `weight version ${weightVersion} of policy ${policyId} is older than the current ${state.weightVersion}`,
          { details: { policyId, current: state.weightVersion } },
        );
      }
      return {
        ...state,
        weightVersion: weightVersion ?? state.weightVersion,
        isPaused: false,
        pauseMode: null,
        pausedAtMs: null,
      };
    });
  }

  /** Runs `next` on the policy's current state, then stores and applies what it returns (null: no change). */
  #change(policyId: string, next: (state: TPolicyState) => TPolicyState | null): Promise<TPolicyState> {
    const id = ZPolicyId.safeParse(policyId);
    if (!id.success) throw requestFailure("VALIDATION_FAILED", `policyId: ${formatIssues(id.error.issues)}`);
    const work = async () => {
      const changed = next(this.stateOf(policyId));
      if (changed === null) return this.stateOf(policyId);
      await this.deps.store.savePolicyState(changed);
      this.#states.set(policyId, changed);
      await this.#apply(changed);
      return { ...changed };
    };
    const previous = this.#chains.get(policyId) ?? Promise.resolve();
    const result = previous.then(work, work);
    const settled = result.catch(() => undefined);
    this.#chains.set(policyId, settled);
    void settled.then(() => {
      if (this.#chains.get(policyId) === settled) this.#chains.delete(policyId);
    });
    return result;
  }

  async #apply(state: TPolicyState): Promise<void> {
    for (const sink of this.deps.sinks) await sink.applyPolicy({ ...state });
  }
}
