/** Fair sharing between training runs (weighted fair queuing of INIT admission, preemption). */
export interface FairShareOptions {
  /**
   * Released jobs allowed ahead of the RUN slots: queued for INIT or RUN, or running INIT. The rest
   * wait in the engine, per run, until the scheduler picks them. Small keeps the order fair and
   * sandboxes few; it must cover the INIT and RUN slots to keep them busy. Default: the live
   * capacity — this engine's INIT + RUN slots plus `capacity()`'s (the other workers'), never below
   * `MIN_ADMISSION_WINDOW`. Given, it is fixed and wins over both.
   */
  queuedAhead?: number;
  /**
   * The INIT + RUN slots of the deployment's other live workers (not draining, not lost, not
   * unhealthy), from their heartbeats; null when unknown (the store cannot be read). Read by the
   * engine every `capacityEveryMs`; a read that fails or is slow keeps the last value. Default
   * none: this engine's own slots are the whole capacity (the embedded default).
   */
  capacity?: (() => Promise<number | null>) | null;
  /** How often `capacity()` is read again, in ms. Default 3_000 (a worker's heartbeat interval). */
  capacityEveryMs?: number;
  /**
   * A job of a higher priority that has waited this long for an INIT or RUN slot preempts a
   * running job of a lower priority in that stage (re-queued for INIT, not counted as an attempt).
   * Default null: no preemption.
   */
  preemptAfterMs?: number | null;
  /** Slot-time assumed for a run's job before any job has finished, in ms. Default 1_000. */
  initialCostMs?: number;
  /** How often waiting work and preemption are re-checked, in ms. Default 500. */
  sweepEveryMs?: number;
  /**
   * A released job with no event for this long is read from the store (an event may have been
   * missed), in ms. Default 5_000.
   */
  staleAfterMs?: number;
}

export interface TResolvedFairShareOptions extends Required<Omit<FairShareOptions, "queuedAhead">> {
  /** The fixed window when one was given; null: it follows the live capacity (`admissionWindow`). */
  queuedAhead: number | null;
}

/**
 * The fewest released jobs kept ahead of the RUN slots when the capacity says less — before any
 * worker has reported (an API-only server with no pools of its own), or while none is live — so
 * that the first worker to come finds work at once instead of admission stalling at zero.
 */
export const MIN_ADMISSION_WINDOW = 4;

/** Every fair-share option defaulted, here and nowhere else. */
export function withFairShareDefaults(options: FairShareOptions): TResolvedFairShareOptions {
  return {
    queuedAhead: options.queuedAhead === undefined ? null : Math.max(1, Math.floor(options.queuedAhead)),
    capacity: options.capacity ?? null,
    capacityEveryMs: options.capacityEveryMs ?? 3_000,
    preemptAfterMs: options.preemptAfterMs ?? null,
    initialCostMs: options.initialCostMs ?? 1_000,
    sweepEveryMs: options.sweepEveryMs ?? 500,
    staleAfterMs: options.staleAfterMs ?? 5_000,
  };
}

/**
 * How many released jobs may be ahead of the RUN slots now: the fixed `queuedAhead` when given,
 * else this engine's INIT + RUN slots plus the other live workers' (`otherSlots`, null when not
 * known yet), never below `MIN_ADMISSION_WINDOW`.
 */
export function admissionWindow(input: {
  queuedAhead: number | null;
  ownSlots: number;
  otherSlots: number | null;
}): number {
  if (input.queuedAhead !== null) return input.queuedAhead;
  const slots = Math.max(0, input.ownSlots) + Math.max(0, input.otherSlots ?? 0);
  return Math.max(MIN_ADMISSION_WINDOW, Math.floor(slots));
}
