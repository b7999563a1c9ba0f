import {
  FAILURE_KINDS,
  FAILURE_LABELS,
  STAGES,
  type TEngineStats,
  type TFailureKind,
  type TFailureLabel,
  type TJobStatus,
  type TStage,
} from "@raas/shared";
import type { JobTotals } from "../ports/job-store.port";

const MAX_SAMPLES = 120;

type Sample = TEngineStats["throughputSeries"][number];
type FailureCount = Sample["failures"][number];

/**
 * Counters behind `stats()`: live queued/active per stage (kept incrementally on every
 * transition), terminal totals (seeded from the store at start) and throughput over a window.
 */
export class StatsTracker {
  readonly #queued = new Map<TStage, number>();
  readonly #active = new Map<TStage, number>();
  readonly #failedByKind = new Map<TFailureKind, number>();
  readonly #failedByLabel = new Map<TFailureLabel, number>();
  readonly #finishedAt: number[] = [];
  readonly #samples: Sample[] = [];
  readonly #windowMs: number;
  readonly #sampleEveryMs: number;
  readonly #startedAtMs: number;
  #submitted = 0;
  #completed = 0;
  #cancelled = 0;
  #tokenBreaks = 0;
  #sampleCompleted = 0;
  #sampleFailed = 0;
  /** Failures of the open sample interval, keyed `kind/stage`. */
  readonly #sampleFailures = new Map<string, FailureCount>();
  #lastSampleAtMs: number;

  constructor(options: { windowMs: number; sampleEveryMs: number; nowMs: number }) {
    this.#windowMs = options.windowMs;
    this.#sampleEveryMs = options.sampleEveryMs;
    this.#startedAtMs = options.nowMs;
    this.#lastSampleAtMs = options.nowMs;
    for (const stage of STAGES) {
      this.#queued.set(stage, 0);
      this.#active.set(stage, 0);
    }
    for (const kind of FAILURE_KINDS) this.#failedByKind.set(kind, 0);
    for (const label of FAILURE_LABELS) this.#failedByLabel.set(label, 0);
  }

  seed(totals: JobTotals): void {
    this.#submitted += totals.submitted;
    this.#completed += totals.completed;
    this.#cancelled += totals.cancelled;
    for (const [kind, count] of Object.entries(totals.failedByKind)) {
      const key = kind as TFailureKind;
      this.#failedByKind.set(key, (this.#failedByKind.get(key) ?? 0) + count);
    }
    for (const [label, count] of Object.entries(totals.failedByLabel)) {
      const key = label as TFailureLabel;
      this.#failedByLabel.set(key, (this.#failedByLabel.get(key) ?? 0) + count);
    }
  }

  /** One more trajectory whose stored turns broke the token-in/token-out property. */
  tokenBreak(): void {
    this.#tokenBreaks += 1;
  }

  submitted(count = 1): void {
    this.#submitted += count;
  }

  /**
   * Moves one job from its previous (status, stage) to the next. `failureLabel` (a failed job's
   * `failure.label`) is counted in `failedByLabel` besides its kind; absent means none.
   */
  moved(
    from: { status: TJobStatus; stage: TStage | null } | null,
    to: {
      status: TJobStatus;
      stage: TStage | null;
      failureKind: TFailureKind | null;
      failureLabel?: TFailureLabel | null;
    },
    nowMs: number,
  ): void {
    if (from) this.#bump(from.status, from.stage, -1);
    this.#bump(to.status, to.stage, +1);
    if (to.status === "completed") {
      this.#completed += 1;
      this.#finished(nowMs, false);
    } else if (to.status === "cancelled") {
      this.#cancelled += 1;
      this.#finished(nowMs, true);
    } else if (to.status === "failed" && to.failureKind) {
      this.#failedByKind.set(to.failureKind, (this.#failedByKind.get(to.failureKind) ?? 0) + 1);
      if (to.failureLabel)
        this.#failedByLabel.set(to.failureLabel, (this.#failedByLabel.get(to.failureLabel) ?? 0) + 1);
      this.#finished(nowMs, true);
      this.#failedIn(to.failureKind, to.stage ?? "init");
    }
  }

  /** A job this engine stops tracking while it is queued or active (another process moved it). */
  left(job: { status: TJobStatus; stage: TStage | null }): void {
    this.#bump(job.status, job.stage, -1);
  }

  snapshot(nowMs: number, concurrency: Record<TStage, number>): TEngineStats {
    this.#roll(nowMs);
    const windowStart = nowMs - this.#windowMs;
    while ((this.#finishedAt[0] ?? Number.POSITIVE_INFINITY) < windowStart) this.#finishedAt.shift();
    const elapsedMs = Math.min(this.#windowMs, Math.max(1, nowMs - this.#startedAtMs));
    const stage = (s: TStage) => ({
      queued: this.#queued.get(s) ?? 0,
      active: this.#active.get(s) ?? 0,
      concurrency: concurrency[s],
    });
    return {
      stages: { init: stage("init"), run: stage("run"), eval: stage("eval") },
      submitted: this.#submitted,
      completed: this.#completed,
      cancelled: this.#cancelled,
      failedByKind: Object.fromEntries(this.#failedByKind) as Record<TFailureKind, number>,
      failedByLabel: Object.fromEntries(this.#failedByLabel) as Record<TFailureLabel, number>,
      tokenBreaks: this.#tokenBreaks,
      throughputPerSec: (this.#finishedAt.length * 1_000) / elapsedMs,
      throughputWindowMs: this.#windowMs,
      // Closed samples are never changed again (the open interval's counts are new objects).
      throughputSeries: [...this.#samples],
      uptimeMs: nowMs - this.#startedAtMs,
    };
  }

  #bump(status: TJobStatus, stage: TStage | null, delta: number): void {
    if (stage === null) return;
    if (status === "queued") this.#queued.set(stage, (this.#queued.get(stage) ?? 0) + delta);
    if (status === "active") this.#active.set(stage, (this.#active.get(stage) ?? 0) + delta);
  }

  #finished(nowMs: number, failed: boolean): void {
    this.#roll(nowMs);
    this.#finishedAt.push(nowMs);
    if (failed) this.#sampleFailed += 1;
    else this.#sampleCompleted += 1;
  }

  /** Counts a failure in the open sample interval (`#finished` rolled it forward already). */
  #failedIn(kind: TFailureKind, stage: TStage): void {
    const key = `${kind}/${stage}`;
    const counted = this.#sampleFailures.get(key);
    if (counted) counted.count += 1;
    else this.#sampleFailures.set(key, { kind, stage, count: 1 });
  }

  /** Closes every full sample interval that has passed. */
  #roll(nowMs: number): void {
    while (nowMs - this.#lastSampleAtMs >= this.#sampleEveryMs) {
      const perSec = 1_000 / this.#sampleEveryMs;
      this.#lastSampleAtMs += this.#sampleEveryMs;
      this.#samples.push({
        atMs: this.#lastSampleAtMs,
        completedPerSec: this.#sampleCompleted * perSec,
        failedPerSec: this.#sampleFailed * perSec,
        failures: [...this.#sampleFailures.values()],
      });
      this.#sampleCompleted = 0;
      this.#sampleFailed = 0;
      this.#sampleFailures.clear();
      if (this.#samples.length > MAX_SAMPLES) this.#samples.shift();
      // After a long idle gap, skip ahead instead of emitting thousands of empty samples.
      if (nowMs - this.#lastSampleAtMs > this.#sampleEveryMs * MAX_SAMPLES) {
        this.#lastSampleAtMs = nowMs - (nowMs % this.#sampleEveryMs);
      }
    }
  }
}
