// The chaos bench's table and summary: a row per phase, a row per fault with what its window
// left behind (so each nonzero summary key names its cause), and the headline keys.
import type { BenchRow } from "../bench.types";
import { percentile } from "../stats";
import type { AuditResult, Finding } from "./audit";
import type { FaultRecord, PhaseResult, ProcessExitRecord } from "./chaos.types";
import { faultWindowOf, type RecoveryOptions, recoveryAfter } from "./recovery";

export interface ReportInput {
  faultFree: PhaseResult;
  chaos: PhaseResult;
  faults: FaultRecord[];
  audit: AuditResult;
  exits: ProcessExitRecord[];
  /** `time` of every error/fatal log line of every process, epoch ms. */
  errorLogTimesMs: number[];
  recovery: RecoveryOptions;
}

/** Completed jobs per second from the phase's start to its last final job. */
export function phaseRate(phase: PhaseResult): number {
  const completed = phase.jobs.filter((job) => job.status === "completed").length;
  return (completed * 1_000) / Math.max(1, phase.endedAtMs - phase.startedAtMs);
}

function phaseRow(phase: PhaseResult): BenchRow {
  const count = (status: string) => phase.jobs.filter((job) => job.status === status).length;
  return {
    name: `${phase.name} phase`,
    jobs: phase.jobs.length,
    completed: count("completed"),
    failed: count("failed"),
    notFinal: phase.notFinalIds.length,
    notSubmitted: phase.notSubmitted,
    jobsPerSec: Number(phaseRate(phase).toFixed(3)),
    elapsedS: Math.round((phase.endedAtMs - phase.startedAtMs) / 1_000),
    submitRetries: phase.submitRetries,
    storePollFailures: phase.storePollFailures,
  };
}

export function buildReport(input: ReportInput): {
  rows: BenchRow[];
  summary: Record<string, string | number | boolean | null>;
} {
  const { audit, chaos, faults } = input;
  const injected = faults.filter((fault) => !fault.skipped);
  const starts = faults.map((fault) => fault.startedAtMs);
  const completions = chaos.jobs
    .filter((job) => job.status === "completed" && job.finishedAtMs !== null)
    .map((job) => job.finishedAtMs as number);
  const recoveries = faults.map((fault, i) =>
    recoveryAfter(
      fault.endedAtMs,
      completions,
      faults[i + 1]?.startedAtMs ?? chaos.endedAtMs,
      chaos.endedAtMs,
      input.recovery,
    ),
  );
  const windowCounts = (findings: readonly Finding[]) => {
    const counts = new Array<number>(faults.length + 1).fill(0);
    for (const finding of findings) {
      const index = faultWindowOf(finding.atMs, starts) + 1;
      counts[index] = (counts[index] ?? 0) + 1;
    }
    return counts;
  };
  const sinceChaos = input.exits.filter((exit) => !exit.expected && exit.atMs >= chaos.startedAtMs);
  const crashes = sinceChaos.filter((exit) => exit.during === "run");
  const startFailures = sinceChaos.filter((exit) => exit.during === "start");
  const columns = {
    failedInfra: windowCounts(audit.failedInfra),
    stuck: windowCounts(audit.stuck),
    unfinished: windowCounts(audit.unfinished),
    missing: windowCounts(audit.missing),
    duplicated: windowCounts(audit.duplicated),
    rewardMismatch: windowCounts(audit.rewardMismatches),
    staleSandboxRecords: windowCounts(audit.staleSandboxRecords),
    staleApiAnswers: windowCounts(audit.staleApiAnswers),
    leakedSandboxes: windowCounts(audit.leakedSandboxes),
    crashes: windowCounts(crashes.map((exit) => ({ what: exit.name, atMs: exit.atMs, detail: "" }))),
    errorLogLines: windowCounts(input.errorLogTimesMs.map((atMs) => ({ what: "log", atMs, detail: "" }))),
  };
  const windowRow = (index: number): Record<string, number> =>
    Object.fromEntries(Object.entries(columns).map(([key, counts]) => [key, counts[index + 1] ?? 0]));
  const faultRows: BenchRow[] = faults.map((fault, i) => ({
    name: `${i + 1}. ${fault.kind}`,
    atS: Math.round((fault.startedAtMs - chaos.startedAtMs) / 1_000),
    faultS: Number(((fault.endedAtMs - fault.startedAtMs) / 1_000).toFixed(1)),
    inFlight: fault.outstandingAtStart,
    recoveryMs: fault.skipped ? null : Math.round(recoveries[i]?.ms ?? Number.NaN),
    recovered: fault.skipped ? null : (recoveries[i]?.recovered ?? false),
    ...windowRow(i),
    detail: fault.skipped ? `skipped: ${fault.skipped}` : fault.detail,
  }));
  const before = windowRow(-1);
  const rows: BenchRow[] = [
    phaseRow(input.faultFree),
    phaseRow(chaos),
    ...(Object.values(before).some((n) => n > 0) ? [{ name: "before the first fault", ...before }] : []),
    ...faultRows,
  ];
  const recoveryMs = recoveries.filter((_, i) => !faults[i]?.skipped).map((recovery) => recovery.ms);
  const faultFreeRate = phaseRate(input.faultFree);
  return {
    rows,
    summary: {
      acknowledged: audit.acknowledged,
      lost: audit.missing.length + audit.unfinished.length,
      duplicated: audit.duplicated.length,
      leakedSandboxes: audit.leakedSandboxes.length,
      staleRecords: audit.staleSandboxRecords.length + audit.staleApiAnswers.length,
      stuckJobs: audit.stuck.length,
      recoveryP95Ms: recoveryMs.length > 0 ? Math.round(percentile(recoveryMs, 95)) : null,
      throughputVsFaultFree: Number((phaseRate(chaos) / faultFreeRate).toFixed(3)),
      faultsInjected: `${injected.length}/${faults.length}`,
      faultsNotRecovered: recoveries.filter((recovery, i) => !faults[i]?.skipped && !recovery.recovered)
        .length,
      completed: audit.completed,
      notSubmitted: chaos.notSubmitted,
      failedInfra: audit.failedInfra.length,
      rewardMismatches: audit.rewardMismatches.length,
      unexpectedExits: crashes.length,
      failedStarts: startFailures.length,
      openRecordsOfLiveHosts: audit.openRecordsOfLiveHosts,
      apiUnanswered: audit.apiUnanswered,
      errorLogLines: input.errorLogTimesMs.filter((at) => at >= chaos.startedAtMs).length,
    },
  };
}
