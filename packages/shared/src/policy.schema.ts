import { z } from "zod";

/**
 * The policy every run, job and backend belongs to unless it names another: a single training run
 * on a service needs no policy of its own, and the REST routes without a `policyId` address it.
 */
export const DEFAULT_POLICY_ID = "default";

/**
 * A policy id: 1-128 letters, digits or `_ . : @ -`, starting with a letter or digit — the same
 * shape as a backend id, so it is safe in a path, a label and a log line.
 */
export const ZPolicyId = z
  .string({ error: "expected a policy id (string)" })
  .regex(/^[A-Za-z0-9][\w.:@-]{0,127}$/, {
    error: "a policy id is 1-128 letters, digits or _ . : @ - and starts with a letter or digit",
  })
  .describe(
    `A policy id: the weights a run trains, served by the backends registered under it (1-128 letters, digits or \`_ . : @ -\`). Default \`${DEFAULT_POLICY_ID}\`.`,
  );

/** An optional policy id that falls back to the default policy. */
const ZPolicyIdOrDefault = ZPolicyId.default(DEFAULT_POLICY_ID);

const PAUSE_MODES = ["wait", "abort-and-continue"] as const;
const ZPauseMode = z
  .enum(PAUSE_MODES)
  .describe(
    "`wait`: generation already running finishes; `abort-and-continue`: it is stopped and later continued from its generated tokens under the new weights.",
  );
export type TPauseMode = z.infer<typeof ZPauseMode>;

const ZWeightVersion = z
  .number()
  .int()
  .min(0)
  .max(Number.MAX_SAFE_INTEGER)
  .describe("The policy's weight version: an integer that grows with every weight update.");

export const ZPolicyIdRequest = z
  .object({ policyId: ZPolicyIdOrDefault })
  .strict()
  .meta({ id: "PolicyIdRequest", description: "Names one policy (default: the default policy)." });

export const ZPauseRequest = z
  .object({ mode: ZPauseMode.default("wait"), policyId: ZPolicyIdOrDefault })
  .strict()
  .meta({ id: "PauseRequest", description: "Stop dispatching generation of one policy for a weight sync." });
export type TPauseRequest = z.input<typeof ZPauseRequest>;

export const ZResumeRequest = z
  .object({ weightVersion: ZWeightVersion.optional(), policyId: ZPolicyIdOrDefault })
  .strict()
  .meta({
    id: "ResumeRequest",
    description:
      "Resume one policy's generation, optionally announcing the weight version its backends now serve.",
  });
export type TResumeRequest = z.input<typeof ZResumeRequest>;

export const ZSetPolicyVersionRequest = z
  .object({ weightVersion: ZWeightVersion, policyId: ZPolicyIdOrDefault })
  .strict()
  .meta({
    id: "SetPolicyVersionRequest",
    description:
      "The weight version every backend of the policy now serves (sets it on each of its registered backends too).",
  });

export const ZPolicyState = z
  .object({
    policyId: z.string().describe("The policy's id."),
    ownerId: z
      .string()
      .nullable()
      .describe(
        "Fingerprint of the trainer token that owns the policy (`token:` + 16 hex digits of its SHA-256): its weight version and pause change only with that token or an admin token. Null until a trainer claims it (by creating a run on it or changing it first).",
      ),
    weightVersion: z
      .number()
      .int()
      .nullable()
      .describe("The policy's current weight version; null before any was set."),
    isPaused: z.boolean().describe("True while the policy's generation is paused for a weight sync."),
    pauseMode: ZPauseMode.nullable().describe("How it was paused; null when running."),
    pausedAtMs: z.number().nullable().describe("When it was paused (ms since the Unix epoch), or null."),
  })
  .meta({
    id: "PolicyState",
    description:
      "One policy's owner, weight version and weight-sync pause (each policy has its own; a pause holds only the jobs of its runs).",
  });
export type TPolicyState = z.infer<typeof ZPolicyState>;

/** A policy nobody has changed yet: no owner, no version, running. */
export function initialPolicyState(policyId: string): TPolicyState {
  return { policyId, ownerId: null, weightVersion: null, isPaused: false, pauseMode: null, pausedAtMs: null };
}

export const ZPolicyList = z
  .object({
    items: z.array(ZPolicyState).describe("Every policy the service knows (the default one always), by id."),
  })
  .meta({ id: "PolicyList", description: "The service's policies." });
