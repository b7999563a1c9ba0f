import { z } from "zod";

/** One model turn, kept as exact token ids (token-in/token-out). */
export const ZTurn = z.object({
  jobId: z.string(),
  index: z.number().int().nonnegative(),
  promptIds: z.array(z.number().int()),
  responseIds: z.array(z.number().int()),
  logprobs: z.array(z.number()),
  backendId: z.string().nullable(),
  weightVersion: z.string().nullable(),
  cachedPromptTokens: z.number().int().nonnegative(),
  latencyMs: z.number().nonnegative(),
  finishReason: z.string().nullable(),
  /** Decoded response text, for display. */
  text: z.string().nullable(),
  createdAtMs: z.number(),
});
export type TTurn = z.infer<typeof ZTurn>;

export const ZToolCall = z.object({
  jobId: z.string(),
  turnIndex: z.number().int().nonnegative(),
  index: z.number().int().nonnegative(),
  name: z.string(),
  arguments: z.unknown(),
  output: z.string(),
  exitCode: z.number().int().nullable(),
  durationMs: z.number().nonnegative(),
  isError: z.boolean(),
  createdAtMs: z.number(),
});
export type TToolCall = z.infer<typeof ZToolCall>;

export const SANDBOX_STATES = ["starting", "ready", "busy", "closing", "closed", "failed"] as const;
export const ZSandboxState = z.enum(SANDBOX_STATES);
export type TSandboxState = z.infer<typeof ZSandboxState>;

export const ZSandboxEvent = z.object({
  sandboxId: z.string(),
  jobId: z.string().nullable(),
  /** created | ready | limit_hit | crashed | closed | … */
  type: z.string(),
  state: ZSandboxState,
  detail: z.record(z.string(), z.unknown()).nullable(),
  atMs: z.number(),
});
export type TSandboxEvent = z.infer<typeof ZSandboxEvent>;
