/** Where a worker's sandbox starts stand: `probing` while a throwaway sandbox checks the host. */
export type SandboxStartHealth = "healthy" | "probing" | "sick";

/** What the caller must do after a report (see {@link SandboxStartRecord}). */
export type SandboxStartVerdict =
  /** Nothing changed. */
  | "none"
  /** Enough starts failed in a row: start a throwaway sandbox to tell a sick host from bad specs. */
  | "probe"
  /** The probe failed too: this worker must take no work (it stays so until a start succeeds). */
  | "sick"
  /** A start succeeded while sick: take work again. */
  | "recovered";

/**
 * Counts a worker's consecutive sandbox starts that failed for infrastructure reasons (not the
 * policy's doing, not a cancellation) and decides when the worker is sick. Reaching the threshold
 * first asks for a probe with the runtime's defaults: a task whose own spec cannot start (a missing
 * image, say) fails on every worker, and must not make them all stop work; only a host whose plain
 * sandbox fails too is sick. Any success resets the count and cures. Pure: the caller starts
 * probes and acts on the verdicts.
 */
export class SandboxStartRecord {
  readonly #failuresBeforeProbe: number;
  readonly #now: () => number;
  #health: SandboxStartHealth = "healthy";
  #consecutiveFailures = 0;
  #lastError: string | null = null;
  #sickSinceMs: number | null = null;

  /** `failuresBeforeProbe`: consecutive infrastructure failures that trigger the probe (at least 1). */
  constructor(failuresBeforeProbe: number, now: () => number = Date.now) {
    if (!Number.isInteger(failuresBeforeProbe) || failuresBeforeProbe < 1) {
      throw new RangeError(`failuresBeforeProbe must be a positive integer, got ${failuresBeforeProbe}`);
    }
    this.#failuresBeforeProbe = failuresBeforeProbe;
    this.#now = now;
  }

  get health(): SandboxStartHealth {
    return this.#health;
  }

  get consecutiveFailures(): number {
    return this.#consecutiveFailures;
  }

  /** When the worker became sick, epoch ms; null unless sick. */
  get sickSinceMs(): number | null {
    return this.#sickSinceMs;
  }

  /** A sentence for `/health`, the dashboard and logs; null while healthy. */
  reason(): string | null {
    if (this.#health !== "sick") return null;
    return `${this.#consecutiveFailures} sandbox start(s) in a row failed on this worker, and a probe sandbox too: ${this.#lastError ?? "unknown error"}`;
  }

  /** A sandbox started (a job's or a probe's). */
  started(): SandboxStartVerdict {
    const wasSick = this.#health === "sick";
    this.#health = "healthy";
    this.#consecutiveFailures = 0;
    this.#lastError = null;
    this.#sickSinceMs = null;
    return wasSick ? "recovered" : "none";
  }

  /** A job's sandbox failed to start for a reason neither the policy nor a cancellation caused. */
  failed(message: string): SandboxStartVerdict {
    this.#consecutiveFailures += 1;
    this.#lastError = message;
    if (this.#health !== "healthy" || this.#consecutiveFailures < this.#failuresBeforeProbe) return "none";
    this.#health = "probing";
    return "probe";
  }

  /**
   * The probe's result. Ignored unless a probe is awaited: a job's start that succeeded meanwhile
   * already decided.
   */
  probed(result: { ok: true } | { ok: false; message: string }): SandboxStartVerdict {
    if (this.#health !== "probing") return "none";
    if (result.ok) {
      this.started();
      return "none";
    }
    this.#lastError = result.message;
    this.#health = "sick";
    this.#sickSinceMs = this.#now();
    return "sick";
  }

  /** A probe made while sick failed: still sick, with the latest error. */
  probeFailedWhileSick(message: string): void {
    if (this.#health === "sick") this.#lastError = message;
  }
}
