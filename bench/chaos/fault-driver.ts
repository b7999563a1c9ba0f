// The driver: the faults in an order shuffled with a fixed seed, one at a time while the chaos
// phase's workload runs. After each it waits for throughput to come back (or a bound) and a
// minimum gap, so the next fault finds a cluster working again and each recovery is its own.
import { seededRandom } from "@raas/shared";
import type { FaultKind, FaultRecord } from "./chaos.types";
import { type FaultContext, injectFault } from "./faults";
import type { RecoveryOptions } from "./recovery";
import type { WorkloadPhase } from "./workload-phase";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface DriverOptions {
  /** Time the workload runs before the first fault, ms. */
  warmupMs: number;
  /** Least time between one fault's end and the next one's start, ms. */
  minGapMs: number;
  /** Longest wait for throughput to come back before the next fault anyway, ms. */
  maxRecoveryWaitMs: number;
  recovery: RecoveryOptions;
  log(line: string): void;
}

/** Fisher–Yates with a seeded generator: the same seed, the same order. */
export function shuffleFaults(faults: readonly FaultKind[], seed: number): FaultKind[] {
  const random = seededRandom(seed);
  const order = [...faults];
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j] as FaultKind, order[i] as FaultKind];
  }
  return order;
}

export async function driveFaults(
  order: readonly FaultKind[],
  context: FaultContext,
  phase: WorkloadPhase,
  options: DriverOptions,
): Promise<FaultRecord[]> {
  const records: FaultRecord[] = [];
  await sleep(options.warmupMs);
  for (const kind of order) {
    const outstandingAtStart = phase.outstandingCount();
    options.log(
      `  fault ${records.length + 1}/${order.length}: ${kind} (${outstandingAtStart} jobs in flight)`,
    );
    let record: FaultRecord;
    try {
      record = { ...(await injectFault(kind, context)), outstandingAtStart };
    } catch (error) {
      const now = Date.now();
      record = {
        kind,
        startedAtMs: now,
        endedAtMs: now,
        detail: "-",
        outstandingAtStart,
        skipped: String(error),
      };
    }
    records.push(record);
    options.log(`    ${record.skipped ? `skipped: ${record.skipped}` : record.detail}`);
    await waitForThroughput(record.endedAtMs, phase, options);
  }
  return records;
}

/** Returns once completions after `endedAtMs` reach the recovery rate over a window, or at the bound. */
async function waitForThroughput(
  endedAtMs: number,
  phase: WorkloadPhase,
  options: DriverOptions,
): Promise<void> {
  const { recovery } = options;
  const needed = Math.max(
    1,
    Math.ceil((recovery.share * recovery.baselinePerSec * recovery.windowMs) / 1_000),
  );
  const bound = endedAtMs + options.maxRecoveryWaitMs;
  await sleep(options.minGapMs);
  while (Date.now() < bound) {
    const now = Date.now();
    const from = Math.max(endedAtMs, now - recovery.windowMs);
    const recent = phase.completionTimes().filter((at) => at >= from).length;
    if (recent >= needed) return;
    if (phase.isSubmitted() && phase.outstandingCount() === 0) return;
    await sleep(500);
  }
}
