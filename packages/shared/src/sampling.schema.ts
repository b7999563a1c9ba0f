import { z } from "zod";

/**
 * What the gateway does with sampling settings a harness sends (`temperature`, `top_p`, `seed`,
 * penalties, `logit_bias`, …): the trainer's settings win either way, since logprobs are only
 * useful under the distribution the run chose.
 */
const HARNESS_SAMPLING_MODES = ["override", "reject"] as const;
export const ZHarnessSamplingMode = z
  .enum(HARNESS_SAMPLING_MODES)
  .describe(
    "`override` (default): a harness's sampling fields are ignored and the job's settings used (the call record lists what was overridden); `reject`: a request whose sampling fields differ from the job's is refused with a 400 naming them.",
  );
export type THarnessSamplingMode = z.infer<typeof ZHarnessSamplingMode>;

/**
 * The sampling parameters a generation was sent to the backend with. Unset ones are sent as no-cut
 * values (top-p 1, top-k -1; vLLM and SGLang also get min-p 0), never left to a server default;
 * penalties and logit bias are never sent (neutral).
 */
export const ZSamplingParams = z
  .object({
    temperature: z.number().nonnegative().describe("Sampling temperature sent to the backend."),
    topP: z.number().describe("Nucleus mass sent to the backend (1: all tokens)."),
    topK: z
      .number()
      .int()
      .nullable()
      .describe(
        "Top-k sent to the backend (-1: no cut, sent when the job sets none); null only on calls recorded before it was always sent.",
      ),
    seed: z.number().int().nullable().describe("Sampling seed sent to the backend; null when none was."),
    maxTokens: z.number().int().positive().describe("Most response tokens asked for."),
  })
  .meta({
    id: "SamplingParams",
    description:
      "The sampling parameters a turn was generated with, as sent to the backend. min-p is always 0 (vLLM, SGLang); penalties and logit bias are never sent (neutral).",
  });
export type TSamplingParams = z.infer<typeof ZSamplingParams>;
