// The reckoning once the chaos phase is over and the cluster idle: every acknowledged job read
// back from the store, the bus's terminal events, the API's answers, open sandbox records and
// sandboxes still on the machine. Each finding keeps the moment it points at, so the report can
// say which fault's window it falls in.
import { isTerminalStatus, type TJob } from "@raas/shared";
import type { JobLedger } from "../../apps/server/test/distributed/support/job-ledger";
import type { ApiClient } from "./api-client";
import type { ObservedJob, PhaseResult } from "./chaos.types";
import { findLeakedSandboxes, type LeakedSandbox } from "./sandbox-leaks";
import type { OpenSandboxRow, StoreView } from "./store-view";
import type { WorkerLife } from "./supervisor";

const GET_PARALLELISM = 8;
const INFRA_KINDS = new Set(["timeout", "sandbox", "inference", "eval"]);

/** One finding and the moment it points at (a job's last change, a sandbox's creation). */
export interface Finding {
  what: string;
  atMs: number;
  detail: string;
}

export interface AuditResult {
  acknowledged: number;
  completed: number;
  /** Acknowledged, but the store has no such job. */
  missing: Finding[];
  /** Not final by the deadline after the last fault. */
  stuck: Finding[];
  /** Still not final at the audit (after the deadline and the idle wait): never reached a final state. */
  unfinished: Finding[];
  /** Reported final twice (two terminal events with different finish times) or with doubled turns. */
  duplicated: Finding[];
  /** Infrastructure failures (never reward 0): timeout, sandbox, inference, eval. */
  failedInfra: Finding[];
  /** Completed with a reward other than the scripted policy's known one. */
  rewardMismatches: Finding[];
  /** Sandbox records open whose host is gone. */
  staleSandboxRecords: Finding[];
  /** Sandbox records open on a host that still runs (nothing is running: a leak by record). */
  openRecordsOfLiveHosts: number;
  /** Jobs whose API answer differs from the store's. */
  staleApiAnswers: Finding[];
  /** API answers that could not be had (the server unreachable). */
  apiUnanswered: number;
  /** Sandboxes still there once idle; `atMs` is when their worker died, else their creation. */
  leakedSandboxes: Array<Finding & { sandbox: LeakedSandbox }>;
}

export interface AuditInput {
  chaos: PhaseResult;
  /** Turns each task's trajectory had in the fault-free phase (the most seen). */
  faultFreeTurns: ReadonlyMap<string, number>;
  expectedRewards: ReadonlyMap<string, number>;
  store: StoreView;
  ledger: JobLedger;
  api: ApiClient;
  isHostAlive(hostId: string): boolean;
  /** Every worker that ran: a leak or a stale record is the fault's that ended its worker. */
  lives: readonly WorkerLife[];
  disksRoot: string;
  baseDirs: readonly string[];
}

export async function auditChaos(input: AuditInput): Promise<AuditResult> {
  const { chaos, store } = input;
  const ids = chaos.jobs.map((job) => job.id);
  const stored = new Map((await store.jobs(ids)).map((row) => [row.id, row]));
  const turns = await store.turnCounts(ids);
  const stuckIds = new Set(chaos.notFinalIds);
  const result: AuditResult = {
    acknowledged: chaos.jobs.length,
    completed: 0,
    missing: [],
    stuck: [],
    unfinished: [],
    duplicated: [],
    failedInfra: [],
    rewardMismatches: [],
    staleSandboxRecords: [],
    openRecordsOfLiveHosts: 0,
    staleApiAnswers: [],
    apiUnanswered: 0,
    leakedSandboxes: findLeakedSandboxes(input.disksRoot, input.baseDirs).map((sandbox) => {
      const exitedAtMs = input.lives.find((life) => life.baseDir === sandbox.baseDir)?.exitedAtMs;
      return {
        what: "leaked sandbox",
        atMs: exitedAtMs ?? sandbox.createdAtMs,
        detail: `${sandbox.id}: ${sandbox.processes} bwrap, ${sandbox.hasDirectory ? "directory" : "no directory"} in ${sandbox.baseDir ?? "?"}`,
        sandbox,
      };
    }),
  };
  for (const job of chaos.jobs) {
    const row = stored.get(job.id);
    if (!row) {
      result.missing.push({ what: "missing", atMs: job.acknowledgedAtMs, detail: `${job.id} (${job.key})` });
      continue;
    }
    const at = row.finishedAtMs ?? row.updatedAtMs;
    const detail = `${job.id} ${job.kind} ${row.status}`;
    if (stuckIds.has(job.id)) result.stuck.push({ what: "stuck", atMs: row.updatedAtMs, detail });
    if (!isTerminalStatus(row.status as TJob["status"]))
      result.unfinished.push({ what: "unfinished", atMs: row.updatedAtMs, detail });
    if (row.status === "completed") result.completed += 1;
    if (row.status === "failed" && row.failureKind && INFRA_KINDS.has(row.failureKind))
      result.failedInfra.push({ what: row.failureKind, atMs: at, detail: `${job.id} ${job.kind}` });
    const finishes = new Set(input.ledger.terminalEvents(job.id).map((event) => event.job.finishedAtMs));
    const expectedTurns = job.taskId ? input.faultFreeTurns.get(job.taskId) : undefined;
    const storedTurns = turns.get(job.id) ?? 0;
    if (finishes.size > 1)
      result.duplicated.push({
        what: "final twice",
        atMs: at,
        detail: `${job.id} ${finishes.size} finishes`,
      });
    else if (row.status === "completed" && expectedTurns !== undefined && storedTurns > expectedTurns)
      result.duplicated.push({
        what: "turns doubled",
        atMs: at,
        detail: `${job.id} ${storedTurns} turns, fault-free ${expectedTurns}`,
      });
    const expected = job.taskId ? input.expectedRewards.get(job.taskId) : undefined;
    if (
      row.status === "completed" &&
      expected !== undefined &&
      Math.abs((row.reward ?? Number.NaN) - expected) > 1e-9
    )
      result.rewardMismatches.push({
        what: "reward",
        atMs: at,
        detail: `${job.id} ${job.taskId} reward ${row.reward}, expected ${expected}`,
      });
  }
  for (const record of await store.openSandboxes()) {
    if (record.hostId && input.isHostAlive(record.hostId)) result.openRecordsOfLiveHosts += 1;
    else {
      const exitedAtMs = input.lives.find((life) => life.id === record.hostId)?.exitedAtMs;
      result.staleSandboxRecords.push(staleRecord(record, exitedAtMs ?? record.createdAtMs));
    }
  }
  await compareApiAnswers(input.api, chaos.jobs, stored, result);
  return result;
}

function staleRecord(record: OpenSandboxRow, atMs: number): Finding {
  return {
    what: "open record, host gone",
    atMs,
    detail: `${record.id} ${record.state} on ${record.hostId ?? "no host"} (job ${record.jobId ?? "-"})`,
  };
}

async function compareApiAnswers(
  api: ApiClient,
  jobs: readonly ObservedJob[],
  stored: ReadonlyMap<string, { status: string; updatedAtMs: number }>,
  result: AuditResult,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++] as ObservedJob;
      const row = stored.get(job.id);
      if (!row) continue;
      try {
        const answer = await api.get<TJob>(`/api/v1/jobs/${job.id}`);
        if (answer.status !== row.status)
          result.staleApiAnswers.push({
            what: "api differs",
            atMs: row.updatedAtMs,
            detail: `${job.id}: api ${answer.status}/${answer.stage}, store ${row.status}`,
          });
      } catch {
        result.apiUnanswered += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: GET_PARALLELISM }, worker));
}
