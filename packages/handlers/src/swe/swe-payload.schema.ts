import { z } from "zod";
import { ZAgentTaskBase } from "../base/agent-payload.schema";
import { ZSweInstance } from "./swe-instance.schema";
import { ZSweRepoSpec } from "./swe-repo-spec.schema";

/**
 * Payload of a `swe` job: `{ taskId?, instance, agent?, spec?, modelPatch? }`. A bare SWE-bench
 * instance (a JSONL line as is) is accepted too and wrapped; `taskId` defaults to the instance id.
 * `spec` overrides fields of the handler's spec for the instance's repository. With `modelPatch`
 * (a prediction's `model_patch`, null for none) the job grades that patch and runs no rollout.
 */
export const ZSwePayload = z.preprocess(
  (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
    const record = value as Record<string, unknown>;
    const wrapped: Record<string, unknown> = "instance" in record ? { ...record } : { instance: record };
    const instance = wrapped.instance as Record<string, unknown> | undefined;
    if (wrapped.taskId === undefined && typeof instance?.instance_id === "string") {
      wrapped.taskId = instance.instance_id;
    }
    return wrapped;
  },
  ZAgentTaskBase.extend({
    instance: ZSweInstance,
    spec: ZSweRepoSpec.optional(),
    modelPatch: z.string().nullable().optional(),
  }).strict(),
);
export type TSwePayload = z.output<typeof ZSwePayload>;
