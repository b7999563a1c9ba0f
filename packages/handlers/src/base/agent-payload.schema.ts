import { z } from "zod";

/** Per-job overrides of the agent loop and sampling; every field optional. */
export const ZAgentOverrides = z
  .object({
    maxTurns: z.number().int().min(1).max(1_000).optional(),
    maxContextTokens: z.number().int().min(256).max(1_048_576).optional(),
    maxTokensPerTurn: z.number().int().min(1).max(262_144).optional(),
    /** Wall-time budget of the agent loop in ms. */
    timeBudgetMs: z.number().int().min(1).max(86_400_000).optional(),
    /** Time limit of one tool call in ms. */
    toolTimeoutMs: z.number().int().min(1).max(3_600_000).optional(),
    temperature: z.number().min(0).max(10).optional(),
    topP: z.number().gt(0).max(1).optional(),
    topK: z.number().int().min(-1).optional(),
    seed: z.number().int().optional(),
    enableThinking: z.boolean().optional(),
  })
  .strict();
export type TAgentOverrides = z.infer<typeof ZAgentOverrides>;

/** Fields every agent-task payload has; handler payload schemas extend this object. */
export const ZAgentTaskBase = z.object({
  /** The task instance's id (also shown to the model as `Task id: …`). */
  taskId: z.string().min(1).max(200),
  agent: ZAgentOverrides.optional(),
});
export type TAgentTaskBase = z.infer<typeof ZAgentTaskBase>;
