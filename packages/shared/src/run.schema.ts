import { z } from "zod";
import { zFilterString, zIdString, zJsonObjectWithoutNul } from "./id.schema";
import { DEFAULT_POLICY_ID, ZPolicyId } from "./policy.schema";

const MS_PER_YEAR = 365 * 24 * 60 * 60 * 1_000;

/**
 * A run's retention policy: when the trajectories (turns with their token ids and logprobs, tool
 * calls) of its finished steps move from the database to the run's compressed archive file,
 * freeing the store for a long run. Job, step and group rows stay; an archived trajectory is read
 * back from the archive by every API that returns it.
 */
const ZRunRetention = z
  .object({
    archiveAfterSteps: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .optional()
      .describe(
        "Archive a finished step's trajectories once the run has this many newer steps (1: as soon as the next step is created). Unset: no condition on steps.",
      ),
    archiveAfterMs: z
      .number()
      .int()
      .min(0)
      .max(MS_PER_YEAR)
      .optional()
      .describe(
        "Archive a finished step's trajectories once it closed at least this many milliseconds ago. Unset: no condition on time.",
      ),
  })
  .strict()
  .refine((policy) => policy.archiveAfterSteps !== undefined || policy.archiveAfterMs !== undefined, {
    message:
      "give archiveAfterSteps, archiveAfterMs or both; leave retention out to keep every trajectory in the database",
  })
  .meta({
    id: "RunRetention",
    description:
      "When a finished step's trajectories are archived: once every condition given holds. Trajectories still in use (a running step's, or finished samples carried into a later step) are never archived.",
  });
export type TRunRetention = z.infer<typeof ZRunRetention>;

/** An image reference: an absolute path on the sandbox hosts, optionally `:tag` for an OCI layout. */
export const ZImageReference = z
  .string()
  .min(1)
  .max(4_096)
  .startsWith("/", { error: "expected an absolute path on the sandbox hosts" })
  .refine((reference) => !reference.includes("\0"), { error: "must not contain NUL" });

/** Create a training run: one training job (a series of steps) of one model on one dataset. */
export const ZCreateRunRequest = z
  .object({
    name: zIdString(200).describe("A name for people (`qwen3-8b-dapo-math`)."),
    runKey: zIdString(300)
      .optional()
      .describe("Idempotency key: the same key returns the existing run (a trainer restarting)."),
    model: zFilterString(300).optional().describe("The policy model being trained, for display."),
    dataset: zFilterString(300).optional().describe("The dataset the run trains on, for display."),
    config: zJsonObjectWithoutNul()
      .optional()
      .describe("The trainer's configuration (learning rate, …); stored, never interpreted."),
    share: z
      .number()
      .positive()
      .max(1_000_000)
      .default(1)
      .describe(
        "Weight of the run's fair share of stage slots and inference capacity among active runs of the same priority (weighted fair queuing). Default 1: a run with share 3 gets three times the slot-time of a run with share 1 while both have work waiting.",
      ),
    priority: z
      .number()
      .int()
      .min(-1_000)
      .max(1_000)
      .default(0)
      .describe(
        "Scheduling priority: work of a higher-priority run starts before any of a lower one and may preempt its INIT and RUN stages (re-queued, finished trajectories kept). Added to each step's job priority. Default 0.",
      ),
    maxSandboxes: z
      .number()
      .int()
      .positive()
      .max(1_000_000)
      .optional()
      .describe(
        "Most of the run's jobs holding a sandbox at once (started, not yet ended). Default: no cap.",
      ),
    retention: ZRunRetention.optional().describe(
      "Retention policy: archive the trajectories of finished steps on this schedule (needs the database store). Default none: every trajectory stays in the database until `runs.archive` after the run finished.",
    ),
    policyId: ZPolicyId.default(DEFAULT_POLICY_ID).describe(
      `The policy the run trains: its jobs generate only on the backends registered under this id, are stamped with its weight version and wait only on its pause. A policy nobody owns yet becomes the creating trainer token's. Default \`${DEFAULT_POLICY_ID}\`.`,
    ),
    image: ZImageReference.optional().describe(
      "Default image of the run's jobs' sandboxes, an absolute path on the sandbox hosts: a rootfs directory, an OCI layout (`path[:tag]`), an OCI or docker save archive, or a SIF. A job's own image wins (its payload's `image`, a SWE spec's or image pattern's, a Harbor task's). Default none: the server's.",
    ),
  })
  .strict()
  .meta({ id: "CreateRunRequest", description: "A training run to create." });
export type TCreateRunRequest = z.input<typeof ZCreateRunRequest>;

const RUN_STATUSES = ["active", "finished"] as const;
const ZRunStatus = z.enum(RUN_STATUSES).describe("`active` until `runs.finish`.");

export const ZRun = z
  .object({
    id: z.string().describe("The run's id (`run_…`)."),
    runKey: z.string().nullable().describe("Its idempotency key, or null."),
    name: z.string().describe("Its name."),
    model: z.string().nullable().describe("The policy model, or null."),
    dataset: z.string().nullable().describe("The dataset, or null."),
    config: z.record(z.string(), z.unknown()).nullable().describe("The trainer's configuration, or null."),
    status: ZRunStatus,
    share: z.number().describe("Weight of the run's fair share (see `CreateRunRequest.share`)."),
    priority: z.number().int().describe("Scheduling priority (higher first; may preempt lower)."),
    maxSandboxes: z
      .number()
      .int()
      .nullable()
      .describe("Cap on the run's jobs holding a sandbox; null: none."),
    ownerId: z
      .string()
      .nullable()
      .describe(
        "Fingerprint of the token that created the run (`token:` + 16 hex digits of its SHA-256); writes to the run (steps, cancel, finish) need that token or an admin token. Null: any trainer may write.",
      ),
    policyId: z.string().describe("The policy the run trains (its backends, weight version and pause)."),
    image: z
      .string()
      .nullable()
      .describe("Default image of its jobs' sandboxes (see `CreateRunRequest.image`); null: none."),
    retention: ZRunRetention.nullable().describe(
      "Its retention policy; null: trajectories stay in the database.",
    ),
    stepCount: z.number().int().nonnegative().describe("Steps created so far."),
    createdAtMs: z.number().describe("Creation time, ms since the Unix epoch."),
    updatedAtMs: z.number().describe("Last change, ms since the Unix epoch."),
  })
  .meta({ id: "Run", description: "One training run: a series of steps." });
export type TRun = z.infer<typeof ZRun>;
