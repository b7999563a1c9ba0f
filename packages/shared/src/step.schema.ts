import { z } from "zod";
import { ZTaskSampling } from "./curriculum.schema";
import { ZId, zIdString, zJsonObjectWithoutNul } from "./id.schema";
import { ZStageTimeoutsMs } from "./job.schema";
import { ZTeacher } from "./teacher.schema";

/** One task of an inline task source: what every member of its group runs. */
export const ZStepTask = z
  .object({
    taskId: zIdString(200).describe(
      "The task's id within its dataset (a SWE-bench instance id, a problem id); groups and carry-over are keyed by it.",
    ),
    kind: zIdString(100).describe("Handler kind (`math`, `code`, `swe`, `sleep`, …)."),
    payload: zJsonObjectWithoutNul().describe("The task instance, validated by the handler of `kind`."),
  })
  .strict()
  .meta({ id: "StepTask", description: "One task of an inline task source." });
export type TStepTask = z.infer<typeof ZStepTask>;

const ZTaskSource = z
  .discriminatedUnion("type", [
    z
      .object({
        type: z.literal("inline").describe("Inline tasks, listed in `tasks`."),
        tasks: z.array(ZStepTask).min(1).max(10_000).describe("The tasks, 1 to 10_000."),
      })
      .strict(),
    z
      .object({
        type: z.literal("dataset").describe("A dataset the server knows, named in `dataset`."),
        dataset: zIdString(200).describe("A dataset the server knows (`GET /api/v1/datasets`)."),
      })
      .strict(),
  ])
  .meta({
    id: "TaskSource",
    description: "Where a step draws its tasks from: inline tasks, or a dataset the server knows.",
  });
export type TTaskSource = z.infer<typeof ZTaskSource>;

const DYNAMIC_SAMPLING_POLICIES = ["none", "zero-variance"] as const;

const ZDynamicSampling = z
  .object({
    policy: z
      .enum(DYNAMIC_SAMPLING_POLICIES)
      .default("zero-variance")
      .describe(
        "`none`: hand out every complete group; `zero-variance` (DAPO): only groups whose rewards differ. Default `zero-variance`.",
      ),
    overProvision: z
      .number()
      .min(1)
      .max(16)
      .default(1.5)
      .describe(
        "Undecided groups kept in flight per informative group still wanted (scaled up by the informative rate seen so far). Default 1.5.",
      ),
    maxGroups: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .optional()
      .describe("Groups the step may start at most before it gives up (`exhausted`). Default 20 × groups."),
    pilot: z
      .number()
      .int()
      .min(1)
      .max(1_024)
      .optional()
      .describe(
        "`zero-variance` only: a new group first runs this many members (its pilot). When their rewards differ the group is informative and its other members run ahead of fresh groups; when the pilot agrees the group is a long shot (likely always or never solved): its samples are kept and carried, and its other members run only once the task source has nothing fresh (or `maxGroups` is reached). A group is still handed out only complete and only when two rewards really differ. Default: every member at once.",
      ),
  })
  .strict()
  .meta({ id: "DynamicSampling", description: "How a step chooses which groups to hand out." });

const STALENESS_ACTIONS = ["withhold", "regenerate"] as const;

const ZStaleness = z
  .object({
    maxVersions: z
      .number()
      .int()
      .min(0)
      .max(1_000_000)
      .describe(
        "A sample dispatched under policy version v is stale once the current version exceeds v + maxVersions.",
      ),
    action: z
      .enum(STALENESS_ACTIONS)
      .default("withhold")
      .describe(
        "`withhold`: a group with a stale sample is kept and reported, not handed out; `regenerate`: stale samples are run again. Default `withhold`.",
      ),
  })
  .strict()
  .meta({ id: "Staleness", description: "How old (in weight versions) a sample may be when handed out." });

export const ZCreateStepRequest = z
  .object({
    runId: ZId.describe("The run this step belongs to."),
    stepKey: zIdString(300)
      .optional()
      .describe("Idempotency key within the run: the same key returns the existing step."),
    tasks: ZTaskSource,
    groupSize: z.number().int().min(1).max(1_024).describe("Samples per group (GRPO's n), 1 to 1024."),
    groups: z.number().int().min(1).max(100_000).describe("Groups wanted (m), 1 to 100_000."),
    agent: zJsonObjectWithoutNul()
      .optional()
      .describe(
        "Agent-loop and sampling overrides (`temperature`, `maxTurns`, …) merged into each task payload's `agent` field.",
      ),
    teacher: ZTeacher.optional().describe(
      "On-policy distillation: each member's finished trajectory is scored once on this teacher (`{ policyId }` or `{ backendId }`; set as each task payload's `agent.teacher`), and its export carries `teacherLogprobs` aligned to the tokens. A teacher failure never fails a member: its export says the teacher is missing and why. Default: none.",
    ),
    timeoutsMs: ZStageTimeoutsMs.optional(),
    priority: z.number().int().min(-1_000_000).max(1_000_000).default(0).describe("Job priority. Default 0."),
    dynamicSampling: ZDynamicSampling.prefault({}),
    staleness: ZStaleness.optional().describe("Staleness limit; default none (any age is fresh)."),
    maxInfraRetries: z
      .number()
      .int()
      .min(0)
      .max(20)
      .default(2)
      .describe(
        "Re-runs of a member that failed for infrastructure reasons before its group fails. A member whose job failed on its own configuration (failure label `misconfigured`) is never re-run: its group fails at once. Default 2.",
      ),
    maxJobFailures: z
      .number()
      .int()
      .min(0)
      .max(10_000_000)
      .optional()
      .describe(
        "Infrastructure failures the step tolerates (failed jobs the policy did not cause — `misconfigured` ones too — every re-run counted, and refused submits): past it the step ends `failed`, its jobs are cancelled and `failure` says why, instead of drawing tasks for ever while nothing can run. The policy's own failures (`agent`, `tampered`) are samples and never count. Default max(16, 2 × groups × groupSize).",
      ),
    requireCertifiedTraces: z
      .boolean()
      .default(false)
      .describe(
        "Hand out only trajectories whose inference-gateway traces are token-exact (issue 15): a group with a member whose certificate is not clean (a harness rewrote or truncated history) is dropped — counted in the waste ledger as `uncertified`, never as reward 0 or an infrastructure failure — and the step draws another. Jobs that made no gateway call have no certificate and pass. Default false.",
      ),
    shuffleSeed: z
      .number()
      .int()
      .optional()
      .describe("Draw tasks in a seeded random order; default the source's order."),
    taskSampling: ZTaskSampling.default({ policy: "uniform" }).describe(
      "How tasks are drawn: `uniform` (default) or `adaptive` (curriculum over per-task pass rates).",
    ),
  })
  .strict()
  .meta({ id: "CreateStepRequest", description: "One training step: m groups of n samples." });
export type TCreateStepRequest = z.input<typeof ZCreateStepRequest>;
export type TCreateStepParsed = z.output<typeof ZCreateStepRequest>;
