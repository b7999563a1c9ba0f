import { z } from "zod";

export const PAUSE_MODES = ["wait", "abort-and-continue"] as const;
export const ZPauseMode = z
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

export const ZPauseRequest = z
  .object({ mode: ZPauseMode.default("wait") })
  .strict()
  .meta({ id: "PauseRequest", description: "Stop dispatching generation for a weight sync." });
export type TPauseRequest = z.input<typeof ZPauseRequest>;

export const ZResumeRequest = z.object({ weightVersion: ZWeightVersion.optional() }).strict().meta({
  id: "ResumeRequest",
  description: "Resume generation, optionally announcing the weight version now served everywhere.",
});
export type TResumeRequest = z.input<typeof ZResumeRequest>;

export const ZSetPolicyVersionRequest = z.object({ weightVersion: ZWeightVersion }).strict().meta({
  id: "SetPolicyVersionRequest",
  description: "The weight version every backend now serves (sets it on each registered backend too).",
});

export const ZPolicyState = z
  .object({
    weightVersion: z
      .number()
      .int()
      .nullable()
      .describe("The current policy weight version; null before any was set."),
    isPaused: z.boolean().describe("True while generation is paused for a weight sync."),
    pauseMode: ZPauseMode.nullable().describe("How it was paused; null when running."),
    pausedAtMs: z.number().nullable().describe("When it was paused (ms since the Unix epoch), or null."),
  })
  .meta({ id: "PolicyState", description: "The policy's weight version and weight-sync pause." });
export type TPolicyState = z.infer<typeof ZPolicyState>;
