import { emptyStepStats, type TStepStats } from "@raas/shared";

/** Step statistics with every counter 0 and no reward yet, changed by `overrides`. */
export function makeStats(overrides: Partial<TStepStats> = {}): TStepStats {
  return { ...emptyStepStats(), ...overrides };
}
