import type { Clock } from "../ports/clock.port";

/**
 * Stops the RUN stages' time budgets while generation is paused for a weight sync: a job waiting
 * at the inference gate is not running out of its own time. Budgets resume where they stopped.
 */
export class StageClockHold {
  #isHeld = false;
  readonly #listeners = new Set<(isHeld: boolean) => void>();

  get isHeld(): boolean {
    return this.#isHeld;
  }

  set(isHeld: boolean): void {
    if (isHeld === this.#isHeld) return;
    this.#isHeld = isHeld;
    for (const listener of [...this.#listeners]) listener(isHeld);
  }

  subscribe(listener: (isHeld: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/**
 * One hold per policy: a weight sync of one policy holds the RUN budgets of that policy's jobs
 * only; jobs of other policies keep generating and keep their clocks running.
 */
export class PolicyClockHolds {
  readonly #holds = new Map<string, StageClockHold>();

  /** The policy's hold (created on first use, not held). */
  of(policyId: string): StageClockHold {
    let hold = this.#holds.get(policyId);
    if (!hold) {
      hold = new StageClockHold();
      this.#holds.set(policyId, hold);
    }
    return hold;
  }
}

/**
 * Calls `onExpire` once `budgetMs` of un-held time has passed. Returns the cancel function. With
 * no `hold`, a plain timer.
 */
export function startBudgetTimer(
  clock: Clock,
  budgetMs: number,
  onExpire: () => void,
  hold: StageClockHold | null,
): () => void {
  let remainingMs = budgetMs;
  let armedAtMs = 0;
  let cancelTimer: (() => void) | null = null;
  const arm = () => {
    armedAtMs = clock.now();
    cancelTimer = clock.setTimer(onExpire, Math.max(0, remainingMs));
  };
  const unsubscribe = hold?.subscribe((isHeld) => {
    if (isHeld && cancelTimer) {
      cancelTimer();
      cancelTimer = null;
      remainingMs -= clock.now() - armedAtMs;
    } else if (!isHeld && !cancelTimer) arm();
  });
  if (!hold?.isHeld) arm();
  return () => {
    cancelTimer?.();
    cancelTimer = null;
    unsubscribe?.();
  };
}
