import { z } from "zod";
import { ZGatewayCallRecord } from "./gateway-trace.schema";

/** One gateway call as the trajectory page lists it: what was said, in the harness's API shape. */
const ZGatewayCallView = ZGatewayCallRecord.pick({
  id: true,
  seq: true,
  parentCallId: true,
  finishReason: true,
  backendId: true,
  weightVersion: true,
  latencyMs: true,
  overheadMs: true,
  overriddenSampling: true,
  toolChoiceViolation: true,
})
  .extend({
    api: ZGatewayCallRecord.shape.exchange.unwrap().shape.api,
    userAgent: z
      .string()
      .nullable()
      .describe("The harness's `User-Agent` header; null when it sent none or the call predates it."),
    promptTokens: z.number().int().nonnegative().describe("Tokens of the rendered prompt."),
    cachedPromptTokens: z
      .number()
      .int()
      .nonnegative()
      .nullable()
      .describe(
        "Prompt tokens the backend reported as served from its prefix cache; null when it said nothing.",
      ),
    createdAtMs: z.number().describe("When the call began, in ms since the epoch."),
    responseTokens: z.number().int().nonnegative().describe("Tokens the model sampled."),
    sent: z
      .unknown()
      .describe(
        "What the harness sent, in its API shape, from after its last assistant turn on (everything on a first call): the Anthropic or Responses request without its system prompt and tools, or `{ messages }` for chat completions.",
      ),
    answered: z
      .unknown()
      .describe(
        "The answer as the harness received it: Anthropic's `message`, the Responses `response`, or the chat completion's assistant message.",
      ),
  })
  .meta({ id: "GatewayCallView", description: "A gateway call in the API shape the harness used." });

export const ZGatewayCallPage = z
  .object({
    calls: z.array(ZGatewayCallView).describe("The calls after `afterSeq`, in arrival order."),
    total: z.number().int().nonnegative().describe("How many calls the job has recorded."),
    nextAfterSeq: z
      .number()
      .int()
      .nullable()
      .describe("Pass as `afterSeq` for the next page; null when this page ends the list."),
  })
  .meta({ id: "GatewayCallPage", description: "A page of a job's gateway calls." });
export type TGatewayCallPage = z.infer<typeof ZGatewayCallPage>;
export type TGatewayCallView = z.infer<typeof ZGatewayCallView>;
