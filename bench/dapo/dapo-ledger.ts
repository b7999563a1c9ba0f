// Pure bookkeeping of the DAPO bench: which finished trajectories reached the trainer, which were
// kept for later, and where the rest of the work went (the batch system's waste-ledger categories,
// computed the same way for the trainer-side baselines). No I/O.

export interface WasteEntry {
  jobs: number;
  rolloutSeconds: number;
  generatedTokens: number;
}

/**
 * The step stats' waste ledger plus `thrownAway`: finished samples neither handed out nor kept
 * (ProRL-style: members of unfinished groups dropped at the stop; wait-for-all: informative
 * groups past the m wanted, truncated as DAPO recipes do).
 */
export interface DapoLedger {
  cancelled: WasteEntry;
  zeroVariance: WasteEntry;
  stale: WasteEntry;
  infraFailures: WasteEntry;
  thrownAway: WasteEntry;
}

/** What the bookkeeping needs of one ended job. */
export interface JobOutcome {
  jobId: string;
  status: "completed" | "failed" | "cancelled";
  trainable: boolean | null;
  reward: number | null;
  rolloutMs: number;
  generatedTokens: number;
}

const emptyEntry = (): WasteEntry => ({ jobs: 0, rolloutSeconds: 0, generatedTokens: 0 });

export function emptyLedger(): DapoLedger {
  return {
    cancelled: emptyEntry(),
    zeroVariance: emptyEntry(),
    stale: emptyEntry(),
    infraFailures: emptyEntry(),
    thrownAway: emptyEntry(),
  };
}

export function addToEntry(entry: WasteEntry, job: Pick<JobOutcome, "rolloutMs" | "generatedTokens">): void {
  entry.jobs += 1;
  entry.rolloutSeconds = Math.round((entry.rolloutSeconds + job.rolloutMs / 1_000) * 1_000) / 1_000;
  entry.generatedTokens += job.generatedTokens;
}

/** A trajectory the trainer could learn from: completed, or failed by the policy's own fault. */
export function isFinishedSample(job: Pick<JobOutcome, "status" | "trainable">): boolean {
  return job.status === "completed" || (job.status === "failed" && job.trainable === true);
}

export type GroupVerdict = "pending" | "informative" | "uninformative" | "failed";

/**
 * A trainer-side verdict on a group of ended jobs (it only sees complete groups): `failed` once a
 * member failed for infrastructure reasons or was cancelled, `pending` while any member runs.
 */
export function judgeGroup(members: readonly (JobOutcome | undefined)[]): GroupVerdict {
  if (members.some((m) => m !== undefined && !isFinishedSample(m))) return "failed";
  if (members.some((m) => m === undefined)) return "pending";
  const rewards = new Set(members.map((m) => m?.reward ?? 0));
  return rewards.size > 1 ? "informative" : "uninformative";
}

/** What a baseline trainer did with a group it submitted. */
type BaselineFate = "delivered" | "zero-variance" | "surplus" | "dropped" | "failed";

export interface BaselineGroup {
  jobIds: readonly string[];
  fate: BaselineFate;
}

/**
 * The ledger of a baseline run from its groups' fates and the jobs' outcomes: cancelled jobs (the
 * work they did before the cancel), infrastructure failures, members of zero-variance groups, and
 * finished samples of surplus or dropped groups (thrown away).
 */
export function baselineLedger(
  groups: readonly BaselineGroup[],
  outcomes: ReadonlyMap<string, JobOutcome>,
): DapoLedger {
  const ledger = emptyLedger();
  for (const group of groups) {
    for (const jobId of group.jobIds) {
      const job = outcomes.get(jobId);
      if (!job) continue;
      if (job.status === "cancelled") addToEntry(ledger.cancelled, job);
      else if (!isFinishedSample(job)) addToEntry(ledger.infraFailures, job);
      else if (group.fate === "zero-variance") addToEntry(ledger.zeroVariance, job);
      else if (group.fate !== "delivered") addToEntry(ledger.thrownAway, job);
    }
  }
  return ledger;
}

/** The parts of the batch system's group view the check needs. */
export interface StepGroupView {
  state: string;
  decision: string;
  members: readonly { jobId: string; status: string }[];
}

/**
 * Finished samples of a batch-system run that were thrown away: ended as a sample, yet not a
 * finished member of a group that was handed out, carried (kept for the next step), withheld for
 * staleness (kept and reported) or dropped as zero-variance (decided). Target: none.
 */
export function unaccountedSamples(
  finishedJobIds: Iterable<string>,
  groups: readonly StepGroupView[],
): string[] {
  const kept = new Set<string>();
  for (const group of groups) {
    const isAccounted =
      group.state === "delivered" ||
      group.state === "carried" ||
      group.state === "withheld" ||
      (group.state === "dropped" && group.decision === "uninformative");
    if (!isAccounted) continue;
    for (const member of group.members) if (member.status === "finished") kept.add(member.jobId);
  }
  return [...finishedJobIds].filter((id) => !kept.has(id));
}

/** Informative groups per hour of wall clock. */
export function groupsPerHour(groups: number, wallMs: number): number {
  return wallMs > 0 ? (groups * 3_600_000) / wallMs : 0;
}
