import { z } from "zod";
import { ZFailureKind } from "./job-status";
import { ZTrajectoryExport } from "./trajectory-export.schema";

const STEP_STATUSES = ["running", "completed", "exhausted", "cancelled", "failed"] as const;
const ZStepStatus = z
  .enum(STEP_STATUSES)
  .describe(
    "`running`; `completed` (m groups handed out); `exhausted` (the task source or `maxGroups` ran out first); `cancelled`; `failed` (more jobs failed for infrastructure reasons than its `maxJobFailures` budget allows: its jobs were cancelled and `failure` says why).",
  );
export type TStepStatus = z.infer<typeof ZStepStatus>;

const GROUP_DECISIONS = ["undecided", "informative", "uninformative", "failed"] as const;
const ZGroupDecision = z
  .enum(GROUP_DECISIONS)
  .describe(
    "`informative`: two members' rewards differ; `uninformative`: all finished equal; `failed`: a member ran out of infrastructure retries, or failed on its own configuration (`misconfigured`, never re-run).",
  );
export type TGroupDecision = z.infer<typeof ZGroupDecision>;

const GROUP_STATES = ["running", "delivered", "dropped", "withheld", "carried", "cancelled"] as const;
const ZGroupState = z
  .enum(GROUP_STATES)
  .describe(
    "`running`; `delivered` (handed to the trainer); `dropped` (decided, not handed out: zero variance or failed); `withheld` (a stale sample); `carried` (undecided at step close, its finished samples moved to the next step); `cancelled`.",
  );
export type TGroupState = z.infer<typeof ZGroupState>;

const ZWasteEntry = z
  .object({
    jobs: z.number().int().nonnegative().describe("Trajectories."),
    rolloutSeconds: z.number().nonnegative().describe("INIT + RUN + EVAL seconds they used."),
    generatedTokens: z.number().int().nonnegative().describe("Tokens the model sampled for them."),
  })
  .meta({ id: "WasteEntry", description: "Work spent on trajectories that were not handed out." });
export type TWasteEntry = z.infer<typeof ZWasteEntry>;

const ZWasteLedger = z
  .object({
    cancelled: ZWasteEntry.describe("Redundant jobs cancelled when the step had its groups."),
    zeroVariance: ZWasteEntry.describe("Members of groups dropped for zero reward variance."),
    stale: ZWasteEntry.describe("Samples withheld or regenerated for staleness."),
    infraFailures: ZWasteEntry.describe(
      "Members that failed for reasons the policy did not cause: infrastructure (re-run) or their own configuration (`misconfigured`, not re-run).",
    ),
    uncertified: ZWasteEntry.default({ jobs: 0, rolloutSeconds: 0, generatedTokens: 0 }).describe(
      "Members of groups dropped because a member's gateway traces were not token-exact (`requireCertifiedTraces`).",
    ),
    expiredLongShots: ZWasteEntry.default({ jobs: 0, rolloutSeconds: 0, generatedTokens: 0 }).describe(
      "Finished samples of carried long shots (groups whose pilot agreed) that this step let go untaken: more of them waited than a step takes (`groups`), so the oldest went.",
    ),
    tampered: ZWasteEntry.default({ jobs: 0, rolloutSeconds: 0, generatedTokens: 0 }).describe(
      "Members whose grade was voided because a grader's canary tests lied (failure label `tampered`): samples with reward 0 (handed out when their group is) whose rollout work bought no real grade. Counted when the member finishes, so one may count again where its group goes (zero variance, stale). 0 on steps stored before this entry existed.",
    ),
  })
  .meta({ id: "WasteLedger", description: "Where a step's rollout work went without reaching the trainer." });
export type TWasteLedger = z.infer<typeof ZWasteLedger>;

const ZStepJobFailures = z
  .object({
    jobs: z
      .number()
      .int()
      .nonnegative()
      .describe(
        "Failures that count against the step's budget: member jobs that failed for reasons the policy did not cause (every attempt counts; a `misconfigured` job, failed by its own configuration, is never re-run), and members whose submit the engine refused. The policy's own failures (`agent`, `tampered`) are samples, not failures.",
      ),
    causes: z
      .record(
        z.string(),
        z.object({
          jobs: z.number().int().nonnegative().describe("Failures of this cause."),
          lastMessage: z.string().describe("The latest one's message."),
        }),
      )
      .describe(
        "The same by cause: `kind/stage` of the failed job (`sandbox/init`), with its failure label when it has one (`sandbox/run/misconfigured`: an environment whose own configuration fails, e.g. an MCP server that cannot start), or `submit`.",
      ),
  })
  .meta({ id: "StepJobFailures", description: "Infrastructure failures a step has seen, by cause." });
export type TStepJobFailures = z.infer<typeof ZStepJobFailures>;

export const ZStepStats = z
  .object({
    groupsStarted: z.number().int().nonnegative().describe("Groups started (carried-in ones included)."),
    groupsDecided: z
      .number()
      .int()
      .nonnegative()
      .describe("Groups decided (informative, uninformative or failed)."),
    informative: z.number().int().nonnegative().describe("Groups decided informative."),
    uninformative: z.number().int().nonnegative().describe("Groups decided uninformative."),
    failedGroups: z
      .number()
      .int()
      .nonnegative()
      .describe(
        "Groups failed for infrastructure reasons or a member's own configuration (`misconfigured`).",
      ),
    groupsDelivered: z.number().int().nonnegative().describe("Groups handed out."),
    jobsSubmitted: z.number().int().nonnegative().describe("Jobs submitted (retries included)."),
    jobsCancelled: z.number().int().nonnegative().describe("Redundant jobs cancelled."),
    infraRetries: z.number().int().nonnegative().describe("Members re-run after an infrastructure failure."),
    trajectoriesCarriedIn: z
      .number()
      .int()
      .nonnegative()
      .describe("Finished samples taken from the previous step."),
    trajectoriesCarriedOver: z
      .number()
      .int()
      .nonnegative()
      .describe("Finished samples kept for the next step."),
    staleWithheld: z.number().int().nonnegative().describe("Samples withheld for staleness."),
    staleRegenerated: z.number().int().nonnegative().describe("Samples re-run for staleness."),
    uncertifiedDropped: z
      .number()
      .int()
      .nonnegative()
      .default(0)
      .describe("Groups dropped because a member's gateway traces were not token-exact."),
    verifierCrashes: z
      .number()
      .int()
      .nonnegative()
      .default(0)
      .describe(
        "Member jobs whose verifier gave no score of its own (the job's `result.verifier.crashed`, reported by `reward-fn`: an exception, a dead process, a time-out), every attempt counted: infrastructure failures, and rewards of 0 where the environment counts an exception as a wrong answer. A policy learning to crash its verifier shows here. 0 on steps stored before this was counted.",
      ),
    jobFailures: ZStepJobFailures.default({ jobs: 0, causes: {} }).describe(
      "Infrastructure failures seen, by cause (empty on steps stored before this was counted).",
    ),
    trajectories: z.number().int().nonnegative().describe("Trajectories handed out."),
    rewardMean: z
      .number()
      .nullable()
      .describe("Mean reward of the handed-out trajectories; null before any."),
    rewardStd: z.number().nullable().describe("Their reward standard deviation; null before any."),
    rewardMin: z.number().nullable().describe("Their lowest reward; null before any."),
    rewardMax: z.number().nullable().describe("Their highest reward; null before any."),
    solvedFraction: z
      .number()
      .nullable()
      .describe("Fraction of finished samples with reward > 0; null before any."),
    meanTrajectoryTokens: z.number().nullable().describe("Mean generated tokens per handed-out trajectory."),
    waste: ZWasteLedger,
  })
  .meta({ id: "StepStats", description: "A step's counters, reward statistics and waste ledger." });
export type TStepStats = z.infer<typeof ZStepStats>;

const STEP_FAILURE_REASONS = ["failure-budget"] as const;

const ZStepFailure = z
  .object({
    reason: z
      .enum(STEP_FAILURE_REASONS)
      .describe(
        "`failure-budget`: more jobs failed for infrastructure reasons than the step's `maxJobFailures` allows.",
      ),
    message: z
      .string()
      .describe("One sentence for the trainer: counts, budget, the commonest cause and its message."),
    jobsFailed: z.number().int().nonnegative().describe("Failures counted against the budget."),
    budget: z.number().int().nonnegative().describe("The budget: failures the step tolerated."),
    commonestCause: z
      .string()
      .nullable()
      .describe(
        "The commonest cause: `kind/stage` (`sandbox/init`) or `submit`; null when none was recorded.",
      ),
    commonestCauseJobs: z.number().int().nonnegative().describe("Failures of the commonest cause."),
    commonestMessage: z.string().nullable().describe("The latest message of the commonest cause."),
  })
  .meta({ id: "StepFailure", description: "Why a step ended as `failed`." });
export type TStepFailure = z.infer<typeof ZStepFailure>;

export const ZStep = z
  .object({
    id: z.string().describe("The step's id (`stp_…`); also the `batchId` of its jobs."),
    runId: z.string().describe("The run it belongs to."),
    index: z.number().int().nonnegative().describe("Its position in the run, from 0."),
    stepKey: z.string().nullable().describe("Its idempotency key, or null."),
    status: ZStepStatus,
    groupSize: z.number().int().describe("Samples per group (n)."),
    groups: z.number().int().describe("Groups wanted (m)."),
    policy: z.enum(["none", "zero-variance"]).describe("Its dynamic-sampling policy."),
    stats: ZStepStats,
    deliveredSeq: z.number().int().nonnegative().describe("Sequence number of the last group handed out."),
    createdAtMs: z.number().describe("Creation time, ms since the Unix epoch."),
    closedAtMs: z.number().nullable().describe("When it stopped running, or null."),
    failure: ZStepFailure.nullable().describe("Why the step failed (status `failed`); null otherwise."),
  })
  .meta({ id: "Step", description: "One training step: its status, progress and statistics." });
export type TStep = z.infer<typeof ZStep>;

const ZStepTrajectory = ZTrajectoryExport.extend({
  slot: z.number().int().nonnegative().describe("The member's position in its group."),
  dispatchVersion: z
    .number()
    .int()
    .nullable()
    .describe("Policy weight version when the sample was dispatched; null when none was set."),
  carriedFromStepId: z
    .string()
    .nullable()
    .describe("The step the sample was generated in when carried over; null when generated in this step."),
}).meta({ id: "StepTrajectory", description: "One group member as a trainer's loss reads it." });
export type TStepTrajectory = z.infer<typeof ZStepTrajectory>;

const ZGroupMember = z
  .object({
    slot: z.number().int().nonnegative().describe("Position in the group."),
    jobId: z.string().describe("The member's current job."),
    status: z.enum(["running", "finished", "failed", "cancelled"]).describe("The member's state."),
    reward: z.number().nullable().describe("Its reward once finished."),
    failureKind: ZFailureKind.nullable().describe("Failure kind of its last job, or null."),
    attempts: z.number().int().describe("Jobs run for this slot (infrastructure retries + 1)."),
    dispatchVersion: z.number().int().nullable().describe("Policy version when dispatched."),
    isStale: z.boolean().describe("True when too old to hand out (withheld)."),
    carriedFromStepId: z.string().nullable().describe("Step it was generated in, when carried over."),
    rolloutMs: z.number().nonnegative().describe("INIT + RUN + EVAL time of its jobs so far, in ms."),
    generatedTokens: z.number().int().nonnegative().describe("Tokens sampled for its jobs so far."),
    pastJobIds: z.array(z.string()).describe("Earlier jobs of this slot (retried or regenerated)."),
  })
  .meta({ id: "GroupMember", description: "One slot of a group." });
export type TGroupMember = z.infer<typeof ZGroupMember>;

export const ZGroup = z
  .object({
    id: z.string().describe("The group's id (`grp_…`); also the `groupId` of its jobs."),
    stepId: z.string().describe("The step it belongs to."),
    runId: z.string().describe("The run it belongs to."),
    taskId: z.string().describe("The task all members run."),
    kind: z.string().describe("Handler kind."),
    decision: ZGroupDecision,
    state: ZGroupState,
    seq: z
      .number()
      .int()
      .nullable()
      .describe("Delivery sequence number within the step; null until handed out."),
    members: z.array(ZGroupMember).describe("One entry per slot."),
    createdAtMs: z.number().describe("When it was started."),
    decidedAtMs: z.number().nullable().describe("When it was decided, or null."),
    finishedAtMs: z
      .number()
      .nullable()
      .describe("When it was delivered, dropped, withheld, carried or cancelled."),
    expiredInStepId: z
      .string()
      .nullable()
      .describe(
        "For a carried long shot (its pilot agreed) that no step took: the later step that let it go, because more long shots waited than a step takes; null otherwise.",
      ),
  })
  .meta({ id: "Group", description: "A group: n samples of one task and what was decided about it." });
export type TGroup = z.infer<typeof ZGroup>;

export const ZGroupResult = z
  .object({
    seq: z.number().int().positive().describe("Delivery sequence number within the step (1, 2, …)."),
    groupId: z.string().describe("The group's id."),
    stepId: z.string().describe("The step."),
    runId: z.string().describe("The run."),
    taskId: z.string().describe("The task."),
    decision: ZGroupDecision,
    rewards: z.array(z.number().nullable()).describe("Members' rewards, by slot."),
    trajectories: z.array(ZStepTrajectory).describe("Members' trajectories, by slot."),
  })
  .meta({ id: "GroupResult", description: "A handed-out group, with every member's trajectory." });
export type TGroupResult = z.infer<typeof ZGroupResult>;

const noWaste = (): TWasteEntry => ({ jobs: 0, rolloutSeconds: 0, generatedTokens: 0 });

/** A step's statistics before anything happened: every counter 0, no reward yet. */
export function emptyStepStats(): TStepStats {
  return {
    groupsStarted: 0,
    groupsDecided: 0,
    informative: 0,
    uninformative: 0,
    failedGroups: 0,
    groupsDelivered: 0,
    jobsSubmitted: 0,
    jobsCancelled: 0,
    infraRetries: 0,
    trajectoriesCarriedIn: 0,
    trajectoriesCarriedOver: 0,
    staleWithheld: 0,
    staleRegenerated: 0,
    uncertifiedDropped: 0,
    verifierCrashes: 0,
    jobFailures: { jobs: 0, causes: {} },
    trajectories: 0,
    rewardMean: null,
    rewardStd: null,
    rewardMin: null,
    rewardMax: null,
    solvedFraction: null,
    meanTrajectoryTokens: null,
    waste: {
      cancelled: noWaste(),
      zeroVariance: noWaste(),
      stale: noWaste(),
      infraFailures: noWaste(),
      uncertified: noWaste(),
      expiredLongShots: noWaste(),
      tampered: noWaste(),
    },
  };
}
