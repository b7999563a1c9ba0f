/** A backend's batch-slot occupancy summarised over a sliding window. */
export interface OccupancySummary {
  /** Share (0..1) of the covered time with at least one request running: the inference busy fraction. */
  busyFraction: number;
  /** Time-weighted mean of requests running over the covered time. */
  meanRunning: number;
  /** meanRunning / capacity (0..1 unless the backend runs more than its registered capacity). */
  slotUtilisation: number;
  /** Part of the window the samples cover, in ms (shorter than the window right after the first sample). */
  coveredMs: number;
}

interface OccupancySample {
  atMs: number;
  running: number;
}

/**
 * Requests running on a backend as a step function of time: each sample holds until the next one.
 * Fed either exactly (every in-flight change) or by polling a reported gauge (vLLM's
 * `vllm:num_requests_running`). Pure bookkeeping; time is passed in.
 */
export class OccupancyWindow {
  private readonly samples: OccupancySample[] = [];

  /** @param windowMs span of the summary in ms. */
  constructor(private readonly windowMs: number) {}

  get hasSamples(): boolean {
    return this.samples.length > 0;
  }

  /** Records that `running` requests run from `nowMs` on. Samples must come in time order. */
  record(running: number, nowMs: number): void {
    const last = this.samples.at(-1);
    if (last && nowMs < last.atMs) return;
    if (last && last.atMs === nowMs) last.running = running;
    else this.samples.push({ atMs: nowMs, running });
    this.trim(nowMs);
  }

  /** The window ending at `nowMs`; null before the first sample or when it covers no time. */
  summarise(nowMs: number, capacity: number): OccupancySummary | null {
    this.trim(nowMs);
    const first = this.samples[0];
    if (!first) return null;
    const startMs = Math.max(nowMs - this.windowMs, first.atMs);
    const coveredMs = nowMs - startMs;
    if (coveredMs <= 0) return null;
    let busyMs = 0;
    let slotMs = 0;
    for (let i = 0; i < this.samples.length; i += 1) {
      const sample = this.samples[i] as OccupancySample;
      const fromMs = Math.max(sample.atMs, startMs);
      const toMs = Math.min(this.samples[i + 1]?.atMs ?? nowMs, nowMs);
      if (toMs <= fromMs) continue;
      if (sample.running > 0) busyMs += toMs - fromMs;
      slotMs += sample.running * (toMs - fromMs);
    }
    const meanRunning = slotMs / coveredMs;
    return {
      busyFraction: busyMs / coveredMs,
      meanRunning,
      slotUtilisation: capacity > 0 ? meanRunning / capacity : 0,
      coveredMs,
    };
  }

  /** Drops samples wholly before the window, keeping the one in force at its start. */
  private trim(nowMs: number): void {
    const startMs = nowMs - this.windowMs;
    while (this.samples.length > 1 && (this.samples[1] as OccupancySample).atMs <= startMs)
      this.samples.shift();
  }
}
