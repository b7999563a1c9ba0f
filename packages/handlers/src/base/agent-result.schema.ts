import { AGENT_STOP_REASONS } from "@raas/engine";
import { z } from "zod";

/** How the agent loop ended and what it did (stored in every agent job's result as `agent`). */
export const ZAgentRunSummary = z
  .object({
    stopReason: z
      .enum(AGENT_STOP_REASONS as [string, ...string[]])
      .describe(
        "Why the loop stopped: submitted (finish tool), final_answer (text without a tool call), max_turns, context_exhausted, response_truncated, time_budget or loop_detected.",
      ),
    stopMessage: z.string().describe("The stop reason in a sentence."),
    turns: z.number().int().describe("Model turns taken."),
    toolCalls: z.number().int().describe("Tool calls made (including rejected ones)."),
    responseTokens: z.number().int().describe("Tokens the model generated over all turns."),
    finalContent: z.string().describe("Visible content of the last response."),
    submission: z
      .object({
        name: z.string().describe("The finish tool's name (`submit`, `finish`)."),
        arguments: z
          .record(z.string(), z.unknown())
          .describe('Its JSON arguments, e.g. `{ "answer": "42" }`.'),
      })
      .nullable()
      .describe("The finish-tool call that ended the loop, or null."),
    events: z
      .array(
        z.object({
          type: z
            .enum([
              "malformed_tool_call",
              "unknown_tool",
              "invalid_arguments",
              "no_tool_call",
              "loop_detected",
            ])
            .describe("What the policy got wrong."),
          turnIndex: z.number().int().describe("The turn it happened in."),
          message: z.string().describe("The observation fed back to the model."),
        }),
      )
      .describe("The policy's mistakes during the loop, in order."),
    durationMs: z.number().describe("Wall time of the loop in ms."),
  })
  .meta({ id: "AgentRunSummary", description: "How the agent loop ended and what it did." });

/** The token-in/token-out check over the stored turns (stored as `tokenDrift`). */
export const ZTokenDriftSummary = z
  .object({
    isConsistent: z
      .boolean()
      .describe("True when every turn's prompt extends the previous prompt + response (no re-tokenization)."),
    turnsChecked: z.number().int().describe("Turns the check looked at."),
    violations: z
      .array(
        z.object({
          kind: z
            .enum(["missing-turn", "job-mismatch", "logprob-count", "prefix-mismatch"])
            .describe("What broke."),
          turnIndex: z.number().int().describe("The turn where it broke."),
          message: z.string().describe("What broke, in a sentence."),
          position: z.number().int().optional().describe("prefix-mismatch: first position that differs."),
          expectedId: z
            .number()
            .int()
            .nullable()
            .optional()
            .describe("prefix-mismatch: the id expected there."),
          actualId: z.number().int().nullable().optional().describe("prefix-mismatch: the id found there."),
          isRetokenization: z
            .boolean()
            .nullable()
            .optional()
            .describe("prefix-mismatch: true when both decode to the same text (re-tokenized)."),
        }),
      )
      .describe("Each break of the property; empty when consistent."),
  })
  .meta({ id: "TokenDriftSummary", description: "The token-in/token-out check over the job's turns." });

/**
 * The result schema of an agent handler: its own fields plus `agent` and `tokenDrift`, which
 * `defineAgentHandler` adds to every result (documentation; results are not validated).
 */
export function agentResultSchema<T extends z.ZodRawShape>(own: z.ZodObject<T>) {
  return own.extend({ agent: ZAgentRunSummary, tokenDrift: ZTokenDriftSummary });
}
