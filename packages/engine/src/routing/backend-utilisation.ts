import type { BackendReportedCounters } from "./backend-stats";
import { type OccupancySummary, OccupancyWindow } from "./occupancy-window";

/** A backend's inference utilisation over the stats window, and where the figures came from. */
export interface InferenceUtilisation extends OccupancySummary {
  /**
   * `reported`: sampled from the backend's own running gauge (vLLM `vllm:num_requests_running`),
   * read at each health check; `in-flight`: this router's own count of requests it sent there, for
   * backends that report nothing.
   */
  source: "reported" | "in-flight";
  /** The span the figures are over, in ms. */
  windowMs: number;
}

/** Requests running summed over engines; null when no engine reports the gauge. */
function reportedRunning(counters: BackendReportedCounters): number | null {
  const running = (counters.engines ?? []).map((e) => e.running).filter((r): r is number => r !== null);
  return running.length === 0 ? null : running.reduce((a, b) => a + b, 0);
}

/**
 * Inference busy fraction and slot utilisation of one backend: from what it reports when it
 * reports a running gauge, else from the router's in-flight accounting. Pure; time is passed in.
 */
export class BackendUtilisation {
  private readonly reported: OccupancyWindow;
  private readonly inFlight: OccupancyWindow;

  /** @param windowMs span of the figures in ms. */
  constructor(private readonly windowMs: number) {
    this.reported = new OccupancyWindow(windowMs);
    this.inFlight = new OccupancyWindow(windowMs);
  }

  /** The router's in-flight count changed (or was read) at `nowMs`. */
  recordInFlight(inFlight: number, nowMs: number): void {
    this.inFlight.record(inFlight, nowMs);
  }

  /** The backend's `/metrics` were read at `nowMs`; ignored when they carry no running gauge. */
  recordReported(counters: BackendReportedCounters, nowMs: number): void {
    const running = reportedRunning(counters);
    if (running !== null) this.reported.record(running, nowMs);
  }

  /** The window ending at `nowMs` against `capacity` batch slots; null before any sample. */
  snapshot(nowMs: number, capacity: number): InferenceUtilisation | null {
    const isReported = this.reported.hasSamples;
    const summary = (isReported ? this.reported : this.inFlight).summarise(nowMs, capacity);
    if (summary === null) return null;
    return { ...summary, source: isReported ? "reported" : "in-flight", windowMs: this.windowMs };
  }
}
