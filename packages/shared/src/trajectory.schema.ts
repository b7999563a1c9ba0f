import { z } from "zod";
import { ZSamplingParams } from "./sampling.schema";

/** Consecutive sampled tokens `[start, end)` that one weight version produced. */
export const ZWeightVersionSpan = z
  .object({
    start: z.number().int().nonnegative().describe("Offset of the span's first token."),
    end: z.number().int().nonnegative().describe("Offset just past the span's last token (exclusive)."),
    weightVersion: z.string().nullable().describe("The weight version that sampled these tokens, or null."),
  })
  .meta({
    id: "WeightVersionSpan",
    description: "Consecutive sampled tokens `[start, end)` that one weight version produced.",
  });
export type TWeightVersionSpan = z.infer<typeof ZWeightVersionSpan>;

/** One alternative at a sampled position (the backend's top-k). */
export const ZTopLogprob = z
  .object({
    tokenId: z.number().int().nonnegative().describe("The alternative token's id."),
    logprob: z.number().describe("Its log-probability at that position."),
  })
  .meta({ id: "TopLogprob", description: "One alternative at a sampled position: token id and logprob." });

/** One model turn, kept as exact token ids (token-in/token-out). */
export const ZTurn = z
  .object({
    jobId: z.string().describe("The job this turn belongs to."),
    index: z.number().int().nonnegative().describe("Turn number, from 0."),
    promptIds: z
      .array(z.number().int())
      .describe(
        "The exact prompt token ids sent: the previous turn's prompt + response ids + the newly templated tokens (never a re-tokenization).",
      ),
    responseIds: z.array(z.number().int()).describe("The sampled token ids, as the backend returned them."),
    logprobs: z
      .array(z.number())
      .describe("Log-probability of each response token, aligned with `responseIds`."),
    topLogprobs: z
      .array(z.array(ZTopLogprob))
      .nullable()
      .optional()
      .describe(
        "When the job asked for top-k logprobs (`agent.topLogprobs`): per response token (aligned with `responseIds`), the most likely alternatives, most likely first — k of them, k + 1 when vLLM added the sampled token from outside the top k. Null or absent when none were asked for.",
      ),
    backendId: z.string().nullable().describe("The inference backend that served the turn, or null."),
    weightVersion: z
      .string()
      .nullable()
      .describe(
        "The policy weight version the backend served, or null; for a turn continued across a weight sync, the version that finished it.",
      ),
    weightVersionSpans: z
      .array(ZWeightVersionSpan)
      .nullable()
      .optional()
      .describe(
        "Per-token weight versions (offsets into `responseIds`, covering it in order) when an `abort-and-continue` weight sync stopped the generation and it was continued under another version; null or absent when the whole turn came from one version (`weightVersion`).",
      ),
    cachedPromptTokens: z
      .number()
      .int()
      .nonnegative()
      .nullable()
      .describe(
        "Prompt tokens the backend reported as served from its prefix cache; null when it did not say (e.g. NeMo-RL `/generate`), never guessed as 0.",
      ),
    latencyMs: z.number().nonnegative().describe("Time from request to full response, in ms."),
    finishReason: z
      .string()
      .nullable()
      .describe("Why generation stopped (`stop`, `length`, …), or null when the backend did not say."),
    text: z.string().nullable().describe("Decoded response text, for display."),
    sampling: ZSamplingParams.nullable()
      .optional()
      .describe(
        "The sampling parameters the turn was generated with (the job's, never a harness's); null or absent for turns recorded before they were kept.",
      ),
    createdAtMs: z.number().describe("When the turn was recorded, ms since the Unix epoch."),
  })
  .meta({ id: "Turn", description: "One model turn, kept as exact token ids (token-in/token-out)." });
export type TTurn = z.infer<typeof ZTurn>;

export const ZToolCall = z
  .object({
    jobId: z.string().describe("The job this tool call belongs to."),
    turnIndex: z.number().int().nonnegative().describe("The turn whose response made the call."),
    index: z.number().int().nonnegative().describe("Position of the call within its turn, from 0."),
    name: z
      .string()
      .describe(
        "Tool name (`bash`, `python`, `editor`, `submit`, …); `(malformed)` for a call that did not parse.",
      ),
    // Typed `unknown` so stored rows of any JSON round-trip; the agent loop always records an object.
    arguments: z.unknown().meta({
      type: "object",
      additionalProperties: true,
      description:
        'The call\'s JSON arguments as the model wrote them (e.g. `{ "command": "ls" }` for bash); `{ "raw": "…" }` holds the text of a malformed call.',
    }),
    output: z.string().describe("The observation fed back to the model (truncated in the middle when long)."),
    exitCode: z.number().int().nullable().describe("Exit status of a command tool, or null."),
    durationMs: z.number().nonnegative().describe("Time the tool took, in ms."),
    isError: z.boolean().describe("True when the call failed (bad arguments, unknown tool, tool error)."),
    reward: z
      .number()
      .nullable()
      .optional()
      .describe(
        "A per-step reward the tool's result carried (an environment's tool server can grade each call), attached to the turn that made the call; null or absent when it carried none.",
      ),
    createdAtMs: z.number().describe("When the call was recorded, ms since the Unix epoch."),
  })
  .meta({ id: "ToolCall", description: "One tool call of the agent and its observation." });
export type TToolCall = z.infer<typeof ZToolCall>;

export const SANDBOX_STATES = ["starting", "ready", "busy", "closing", "closed", "failed"] as const;
const ZSandboxState = z.enum(SANDBOX_STATES).describe("A sandbox's state.");
export type TSandboxState = z.infer<typeof ZSandboxState>;

export const ZSandboxEvent = z
  .object({
    sandboxId: z.string().describe("The sandbox's id."),
    jobId: z.string().nullable().describe("The job the sandbox served, or null."),
    type: z.string().describe("created | ready | limit_hit | crashed | closed | …"),
    state: ZSandboxState,
    detail: z.record(z.string(), z.unknown()).nullable().describe("Event-specific detail, or null."),
    atMs: z.number().describe("When it happened, ms since the Unix epoch."),
  })
  .meta({ description: "A sandbox lifecycle event." });
export type TSandboxEvent = z.infer<typeof ZSandboxEvent>;
