/** Fair sharing between training runs (weighted fair queuing of INIT admission, preemption). */
export interface FairShareOptions {
  /**
   * Released jobs allowed ahead of the RUN slots: queued for INIT or RUN, or running INIT. The rest
   * wait in the engine, per run, until the scheduler picks them. Small keeps the order fair and
   * sandboxes few; it must cover the INIT and RUN slots to keep them busy (in distributed mode,
   * the workers' slots: set it). Default: this engine's INIT + RUN concurrency.
   */
  queuedAhead?: number;
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

export type TResolvedFairShareOptions = Required<FairShareOptions>;

/** Every fair-share option defaulted, here and nowhere else. */
export function withFairShareDefaults(
  options: FairShareOptions,
  slots: { init: number; run: number },
): TResolvedFairShareOptions {
  return {
    queuedAhead: Math.max(1, Math.floor(options.queuedAhead ?? slots.init + slots.run)),
    preemptAfterMs: options.preemptAfterMs ?? null,
    initialCostMs: options.initialCostMs ?? 1_000,
    sweepEveryMs: options.sweepEveryMs ?? 500,
    staleAfterMs: options.staleAfterMs ?? 5_000,
  };
}
