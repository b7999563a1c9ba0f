import { z } from "zod";
import { ZSamplingParams } from "./sampling.schema";
import { ZTopLogprob } from "./trajectory.schema";

/** An answer that did not honour the request's `tool_choice` (the gateway cannot force a tool call). */
const ZToolChoiceViolation = z
  .object({
    required: z
      .string()
      .describe('What `tool_choice` asked for: `any` for `"required"`, else the named tool.'),
    calledTools: z.array(z.string()).describe("The tools the answer called (empty when none)."),
    message: z.string().describe("The violation in a sentence."),
  })
  .meta({ id: "ToolChoiceViolation", description: "An answer that did not honour `tool_choice`." });
export type TToolChoiceViolation = z.infer<typeof ZToolChoiceViolation>;

/**
 * One model call recorded by the inference gateway: what the harness sent (rendered to token ids by
 * the server) and what the model sampled.
 */
const ZGatewayCall = z
  .object({
    id: z.string().describe("Id of the call (unique within the job)."),
    seq: z.number().int().nonnegative().describe("Order of arrival within the job (0 for the first call)."),
    parentCallId: z
      .string()
      .nullable()
      .describe(
        "The call whose answer the request's history ended with (matched by the tool-call ids and text the gateway returned); null when the history held none.",
      ),
    promptIds: z.array(z.number().int()).describe("Token ids of the rendered prompt."),
    responseIds: z.array(z.number().int()).describe("Token ids the model sampled."),
    logprobs: z
      .array(z.number())
      .describe("Logprob of each sampled token (empty when the backend gave none)."),
    topLogprobs: z
      .array(z.array(ZTopLogprob))
      .optional()
      .describe(
        "When the job asked for top-k logprobs (`agent.topLogprobs`): per sampled token (aligned with `responseIds`), the most likely alternatives, most likely first. Absent when none were asked for.",
      ),
    finishReason: z
      .string()
      .nullable()
      .describe("Why sampling stopped (`stop`, `length`, …); null when unknown."),
    backendId: z.string().nullable().describe("The inference backend that sampled the answer."),
    weightVersion: z
      .string()
      .nullable()
      .describe("Weight version of that backend; null when it reported none."),
    latencyMs: z.number().nonnegative().describe("Time the backend spent on the generation, in ms."),
    sampling: ZSamplingParams.optional().describe(
      "The sampling parameters the answer was generated with: the job's, whatever the harness sent; absent for calls recorded before they were kept.",
    ),
    overriddenSampling: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "Sampling fields the harness sent that differ from the job's settings and were not used (`temperature`, `top_p`, `seed`, `logit_bias`, …), as sent; absent when there were none.",
      ),
    toolChoiceViolation: ZToolChoiceViolation.optional().describe(
      "Set when the answer did not honour the request's `tool_choice`; absent when it did or there was none.",
    ),
  })
  .meta({ id: "GatewayCall", description: "A model call made through the inference gateway." });
export type TGatewayCall = z.infer<typeof ZGatewayCall>;

const GATEWAY_APIS = ["chat.completions", "anthropic.messages", "openai.responses"] as const;

/** How a call reached the gateway: the API shape, the client, and what was said in that shape. */
const ZGatewayExchange = z
  .object({
    api: z
      .enum(GATEWAY_APIS)
      .describe(
        "The API shape the harness called: OpenAI chat completions, Anthropic Messages or OpenAI Responses.",
      ),
    userAgent: z
      .string()
      .nullable()
      .describe(
        "The harness's `User-Agent` header (a CLI names itself and its version there); null when none.",
      ),
    request: z
      .unknown()
      .optional()
      .describe(
        "What the harness sent in its own shape, without what the record already holds: the messages (or input items) after the last assistant turn it sent back (all of them on a first call), and the request's other fields but the system prompt (`system` / `instructions`) and `tools`. Absent for chat completions (`messages` is the request).",
      ),
    response: z
      .unknown()
      .optional()
      .describe(
        "The answer as the harness received it (Anthropic's `message`, the Responses `response` without the `instructions` and `tools` it echoes); absent for chat completions (`answer` is it).",
      ),
  })
  .meta({
    id: "GatewayExchange",
    description: "How a call reached the gateway and what was said, in the harness's API shape.",
  });
export type TGatewayExchange = z.infer<typeof ZGatewayExchange>;
export type TGatewayApi = TGatewayExchange["api"];

/** A recorded gateway call with what the harness sent and what it got back. */
export const ZGatewayCallRecord = ZGatewayCall.extend({
  jobId: z.string(),
  messages: z.array(z.unknown()).describe("The request's messages as the harness sent them."),
  tools: z.array(z.unknown()).describe("The request's tools."),
  answer: z.unknown().describe("The assistant message the gateway answered with."),
  cachedPromptTokens: z.number().int().nonnegative().nullable(),
  enableThinking: z
    .boolean()
    .optional()
    .describe(
      "Whether the prompt was rendered with thinking on (`chat_template_kwargs.enable_thinking`, default true); absent for calls recorded before it was kept.",
    ),
  overheadMs: z
    .number()
    .nonnegative()
    .describe(
      "Time the gateway spent on the call besides the routed pool's generation (render, tokenize, parse, answer), in ms, on a monotonic clock.",
    ),
  exchange: ZGatewayExchange.optional().describe(
    "The API shape and client of the call and, for shapes other than chat completions, what was sent and answered in that shape; absent for calls recorded before it was kept.",
  ),
  createdAtMs: z.number(),
}).meta({ id: "GatewayCallRecord", description: "A model call recorded by the inference gateway." });
export type TGatewayCallRecord = z.infer<typeof ZGatewayCallRecord>;

/** Where one call's sampled tokens sit in its chain's stream. */
const ZTraceCallSpan = z
  .object({
    callId: z.string().describe("The call whose sampled tokens these are."),
    start: z.number().int().nonnegative().describe("Offset of the call's first sampled token in `tokens`."),
    end: z.number().int().nonnegative().describe("Offset just past its last sampled token (exclusive)."),
    backendId: z.string().nullable().describe("The backend that sampled them."),
    weightVersion: z.string().nullable().describe("Its weight version; null when unknown."),
    finishReason: z.string().nullable().describe("Why sampling stopped; null when unknown."),
  })
  .describe("Where one call's sampled tokens sit in its chain's stream.");

const TRACE_CHAIN_ORIGINS = ["start", "fork", "split"] as const;

/** One chain of calls, each continuing the one before token for token, as one flat stream. */
const ZTraceChain = z
  .object({
    index: z
      .number()
      .int()
      .nonnegative()
      .describe("Position of the chain in the trajectory's list (0 first)."),
    origin: z
      .enum(TRACE_CHAIN_ORIGINS)
      .describe(
        "`start`: a conversation of its own (first call, a sub-agent); `fork`: continues a call another chain already continued (parallel calls); `split`: starts where a chain broke.",
      ),
    fromChainIndex: z
      .number()
      .int()
      .nonnegative()
      .nullable()
      .describe("For `fork` and `split`: the chain it came from."),
    callIds: z.array(z.string()).describe("The calls merged into the chain, in order."),
    tokens: z
      .array(z.number().int())
      .describe(
        "The stream: the first prompt, then each call's sampled ids and the ids that came in between.",
      ),
    lossMask: z.array(z.union([z.literal(0), z.literal(1)])).describe("1 on sampled tokens, 0 elsewhere."),
    logprobs: z.array(z.number().nullable()).describe("Aligned to `tokens`; null where the mask is 0."),
    logprobsComplete: z.boolean().describe("False when a call came back without one logprob per token."),
    promptLength: z.number().int().nonnegative().describe("Length of the first call's prompt in `tokens`."),
    spans: z.array(ZTraceCallSpan).describe("Where each call's sampled tokens sit in `tokens`."),
  })
  .meta({ id: "TraceChain", description: "A chain of gateway calls as one token stream." });
export type TTraceChain = z.infer<typeof ZTraceChain>;

const TRACE_BREAK_REGIONS = ["prompt", "response"] as const;

/** A call that should have continued a chain but did not extend its prompt + response exactly. */
const ZTraceBreak = z
  .object({
    callId: z.string().describe("The call that broke the chain."),
    callSeq: z.number().int().nonnegative().describe("Its arrival order in the job."),
    chainIndex: z
      .number()
      .int()
      .nonnegative()
      .describe("The chain the call would have continued (it ends before it)."),
    newChainIndex: z.number().int().nonnegative().describe("The chain the call starts instead."),
    position: z
      .number()
      .int()
      .nonnegative()
      .describe(
        "First token of the broken chain's stream (its prompt + last response) the call's prompt does not repeat.",
      ),
    expectedId: z.number().int().nullable().describe("The chain's token at `position`."),
    actualId: z.number().int().nullable().describe("The call's token there; null when its prompt ended."),
    region: z
      .enum(TRACE_BREAK_REGIONS)
      .describe(
        "`prompt`: the harness changed earlier history (rewrote or truncated it); `response`: the sampled answer was not sent back as sampled (re-rendered, e.g. a chat template dropping a past <think> block).",
      ),
    message: z.string().describe("The break in a sentence."),
  })
  .meta({ id: "TraceBreak", description: "Where a chain of gateway calls stopped being token-exact." });
export type TTraceBreak = z.infer<typeof ZTraceBreak>;

/** Per trajectory: whether its traces are token-exact and, where not, exactly where they broke. */
const ZTraceCertificate = z
  .object({
    isCertified: z
      .boolean()
      .describe("True when no chain broke: every stream is what the model saw and sampled."),
    callCount: z
      .number()
      .int()
      .nonnegative()
      .describe("Model calls the trajectory made through the gateway."),
    chainCount: z.number().int().nonnegative().describe("Chains they form."),
    callsMerged: z
      .number()
      .int()
      .nonnegative()
      .describe("Calls that continued a chain (their prompts were not repeated in the stream)."),
    forkCount: z.number().int().nonnegative().describe("Chains that fork from another (parallel calls)."),
    breaks: z.array(ZTraceBreak).describe("Where chains broke, in call order; empty when certified."),
    toolChoiceViolations: z
      .array(
        ZToolChoiceViolation.extend({
          callId: z.string().describe("The call whose answer it was."),
          callSeq: z.number().int().nonnegative().describe("Its arrival order in the job."),
        }),
      )
      .default([])
      .describe(
        "Calls whose answer did not honour `tool_choice`, in call order. Token-exactness does not depend on them (the tokens are what the model sampled); a trainer may drop or penalise them.",
      ),
  })
  .meta({
    id: "TraceCertificate",
    description: "The token-exactness certificate of a trajectory's gateway traces.",
  });
export type TTraceCertificate = z.infer<typeof ZTraceCertificate>;

export const ZGatewayTraces = z
  .object({
    chains: z.array(ZTraceChain).describe("The trajectory's chains, each one token-exact stream."),
    certificate: ZTraceCertificate,
  })
  .meta({
    id: "GatewayTraces",
    description:
      "A trajectory's gateway calls rebuilt into training streams, with its token-exactness certificate.",
  });
export type TGatewayTraces = z.infer<typeof ZGatewayTraces>;
