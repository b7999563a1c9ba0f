/**
 * One thing a worker's health depends on (`store`, `queue`, `sandboxes`, …) as its owner last
 * reported it. `stopsWork`: while false, the worker takes no new work (it is unhealthy, not just
 * degraded): `/health` answers 503 with the reason.
 */
export interface HealthCondition {
  ok: boolean;
  /** A sentence for operators when not ok ("PostgreSQL unreachable: connection refused"). */
  reason: string | null;
  /** When it last changed from ok to not ok or back, epoch ms. */
  sinceMs: number;
  stopsWork: boolean;
}

/**
 * The worker's health conditions, set by the parts that watch them and read by `/health`, the
 * metrics (`raas_worker_condition_ok{condition}`) and the worker's heartbeat. A condition never
 * reported is absent (healthy).
 */
export class HealthConditions {
  readonly #conditions = new Map<string, HealthCondition>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Reports a condition; `sinceMs` moves only when `ok` changes. */
  report(name: string, update: { ok: boolean; reason?: string | null; stopsWork?: boolean }): void {
    const previous = this.#conditions.get(name);
    const changed = previous === undefined || previous.ok !== update.ok;
    this.#conditions.set(name, {
      ok: update.ok,
      reason: update.ok ? null : (update.reason ?? previous?.reason ?? null),
      sinceMs: changed ? this.#now() : previous.sinceMs,
      stopsWork: update.stopsWork ?? previous?.stopsWork ?? false,
    });
  }

  get(name: string): HealthCondition | undefined {
    return this.#conditions.get(name);
  }

  list(): Array<{ name: string } & HealthCondition> {
    return [...this.#conditions].map(([name, condition]) => ({ name, ...condition }));
  }

  /**
   * Why the worker takes no work, one `name: reason` per failing condition that stops work
   * (joined with "; "); null while none fails. Sent with the heartbeat for `workers.list`.
   */
  unhealthyReason(): string | null {
    const reasons: string[] = [];
    for (const [name, condition] of this.#conditions) {
      if (!condition.ok && condition.stopsWork) reasons.push(`${name}: ${condition.reason ?? "failing"}`);
    }
    return reasons.length > 0 ? reasons.join("; ") : null;
  }

  /** True when a condition that stops work is not ok. */
  isUnhealthy(): boolean {
    for (const condition of this.#conditions.values()) if (!condition.ok && condition.stopsWork) return true;
    return false;
  }
}
