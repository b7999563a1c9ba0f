import { z } from "zod";

/**
 * What the gateway does with sampling settings a harness sends (`temperature`, `top_p`, `seed`,
 * penalties, `logit_bias`, …): the trainer's settings win either way, since logprobs are only
 * useful under the distribution the run chose.
 */
export const HARNESS_SAMPLING_MODES = ["override", "reject"] as const;
export const ZHarnessSamplingMode = z
  .enum(HARNESS_SAMPLING_MODES)
  .describe(
    "`override` (default): a harness's sampling fields are ignored and the job's settings used (the call record lists what was overridden); `reject`: a request whose sampling fields differ from the job's is refused with a 400 naming them.",
  );
export type THarnessSamplingMode = z.infer<typeof ZHarnessSamplingMode>;

/**
 * The sampling parameters a generation was sent to the backend with. Parameters the service never
 * sends (min-p, penalties, logit bias) are absent: the backend's neutral defaults applied.
 */
export const ZSamplingParams = z
  .object({
    temperature: z.number().nonnegative().describe("Sampling temperature sent to the backend."),
    topP: z.number().describe("Nucleus mass sent to the backend (1: all tokens)."),
    topK: z
      .number()
      .int()
      .nullable()
      .describe("Top-k sent to the backend; null when none was sent (the backend's default)."),
    seed: z.number().int().nullable().describe("Sampling seed sent to the backend; null when none was."),
    maxTokens: z.number().int().positive().describe("Most response tokens asked for."),
  })
  .meta({
    id: "SamplingParams",
    description:
      "The sampling parameters a turn was generated with, as sent to the backend. min-p, penalties and logit bias are never sent (neutral).",
  });
export type TSamplingParams = z.infer<typeof ZSamplingParams>;
