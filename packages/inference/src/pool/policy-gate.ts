import type { TPauseMode } from "@raas/shared";
import { type InferenceFailure, inferenceFailure } from "../inference-failure";

/**
 * The weight-sync gate of an inference pool. While paused, new generation requests wait here
 * (nothing is sent); under `abort-and-continue` the requests already running are interrupted (they
 * hand over their tokens and come back to wait); under `wait` they finish. Cancellation ends a wait
 * at once.
 *
 * Only a policy whose weights can change mid-generation needs its requests interruptible (read
 * as a token stream, which costs the gateway a wake-up and a parse per token): `mayInterrupt`
 * turns on, for good, once the policy has a weight version or a trainer owns it, or once it was
 * paused with `abort-and-continue`. Until then requests read one answer, and a request already
 * running when the first such pause comes finishes as under `wait`.
 */
export class PolicyGate {
  private pause: { mode: TPauseMode; resumed: Promise<void>; resume: () => void } | null = null;
  /** Interrupt controllers of the requests running now. */
  private readonly running = new Set<AbortController>();
  #mayInterrupt = false;

  /** True once the policy's running requests may be interrupted by a weight sync (see the class). */
  get mayInterrupt(): boolean {
    return this.#mayInterrupt;
  }

  get isPaused(): boolean {
    return this.pause !== null;
  }

  /** Pauses (or changes the mode of a pause) or resumes. */
  apply(state: {
    isPaused: boolean;
    pauseMode: TPauseMode | null;
    weightVersion?: number | null;
    ownerId?: string | null;
  }): void {
    const isTrained = state.weightVersion != null || state.ownerId != null;
    if (isTrained || (state.isPaused && state.pauseMode === "abort-and-continue")) this.#mayInterrupt = true;
    if (!state.isPaused) {
      const pause = this.pause;
      this.pause = null;
      pause?.resume();
      return;
    }
    const mode = state.pauseMode ?? "wait";
    if (this.pause) this.pause.mode = mode;
    else {
      let resume = () => {};
      const resumed = new Promise<void>((resolve) => {
        resume = resolve;
      });
      this.pause = { mode, resumed, resume };
    }
    if (mode === "abort-and-continue") for (const controller of this.running) controller.abort();
  }

  /**
   * Resolves at once when running, else when resumed, with the time waited in ms; rejects with an
   * `aborted` failure as soon as `signal` aborts.
   */
  async pass(jobId: string, signal: AbortSignal | undefined, now: () => number): Promise<number> {
    if (signal?.aborted) throw abortedFailure(jobId);
    if (!this.pause) return 0;
    const startedAtMs = now();
    while (this.pause) {
      const { resumed } = this.pause;
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => reject(abortedFailure(jobId));
        signal?.addEventListener("abort", onAbort, { once: true });
        void resumed.then(() => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        });
      });
    }
    return now() - startedAtMs;
  }

  /**
   * Registers a request about to run; its `signal` aborts when an `abort-and-continue` pause
   * comes (already aborted when one is on). Call `done` when the request ends.
   */
  track(): { signal: AbortSignal; done: () => void } {
    const controller = new AbortController();
    if (this.pause?.mode === "abort-and-continue") controller.abort();
    this.running.add(controller);
    return { signal: controller.signal, done: () => this.running.delete(controller) };
  }
}

function abortedFailure(jobId: string): InferenceFailure {
  return inferenceFailure("aborted", `generation for job ${jobId} aborted`);
}
