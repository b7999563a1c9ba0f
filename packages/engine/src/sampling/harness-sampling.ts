import type { THarnessSamplingMode } from "@raas/shared";
import { DEFAULT_TEMPERATURE, DEFAULT_TOP_P, type JobSampling } from "./sampling-record";

/** How a job's gateway treats the sampling settings its harness sends. */
export interface HarnessSamplingPolicy {
  /** The job's (or its step's) settings; an absent one is the codecs' default (temperature 1, top-p 1). */
  settings: JobSampling;
  /** `override` ignores the harness's fields, `reject` refuses a request that sets one otherwise. */
  mode: THarnessSamplingMode;
}

/** The policy of a session opened without one: the backend defaults, harness fields ignored. */
export const DEFAULT_HARNESS_SAMPLING: HarnessSamplingPolicy = { settings: {}, mode: "override" };

/** A sampling field of a harness's request that asks for another distribution than the job's. */
export interface SamplingConflict {
  /** The request's field (`temperature`, `top_p`, `logit_bias`, …). */
  field: string;
  /** Its value as the harness sent it. */
  value: unknown;
  /** What the job uses instead, in words (`1`, `none`, `{}`). */
  jobValue: string;
}

/** The job's value of a field and whether the harness's value is the same. */
type FieldRule = (value: unknown, settings: JobSampling) => { isSame: boolean; jobValue: string };

const equalTo =
  (pick: (settings: JobSampling) => number | undefined, fallback: number | null): FieldRule =>
  (value, settings) => {
    const job = pick(settings) ?? fallback;
    return { isSame: value === job, jobValue: job === null ? "none" : String(job) };
  };
const neutral =
  (expected: number | boolean): FieldRule =>
  (value) => ({ isSame: value === expected, jobValue: String(expected) });
// vLLM and SGLang read top-k -1 (and vLLM 0) as "no top-k cut".
const isTopKOff = (value: unknown) => value === -1 || value === 0;

/**
 * Every request field of the three API shapes a harness may speak (chat completions, Anthropic
 * Messages, OpenAI Responses) that changes the distribution tokens are sampled from, or which
 * sample is drawn. `n` is not here: the request schema refuses anything but 1.
 */
const FIELD_RULES: Readonly<Record<string, FieldRule>> = {
  temperature: equalTo((settings) => settings.temperature, DEFAULT_TEMPERATURE),
  top_p: equalTo((settings) => settings.topP, DEFAULT_TOP_P),
  top_k: (value, settings) => {
    const job = settings.topK;
    if (job === undefined || isTopKOff(job)) return { isSame: isTopKOff(value), jobValue: "none" };
    return { isSame: value === job, jobValue: String(job) };
  },
  seed: equalTo((settings) => settings.seed, null),
  min_p: neutral(0),
  typical_p: neutral(1),
  presence_penalty: neutral(0),
  frequency_penalty: neutral(0),
  repetition_penalty: neutral(1),
  best_of: neutral(1),
  use_beam_search: neutral(false),
  logit_bias: (value) => ({
    isSame: typeof value === "object" && value !== null && Object.keys(value).length === 0,
    jobValue: "{}",
  }),
};

/** The request fields a gateway treats as sampling settings (the job's win over them). */
export const HARNESS_SAMPLING_FIELDS: readonly string[] = Object.keys(FIELD_RULES);

/**
 * The sampling fields of a harness's request (any API shape) whose values differ from what the
 * job samples with; fields left out or `null` ask for nothing. Pure.
 */
export function findSamplingConflicts(
  request: Readonly<Record<string, unknown>>,
  settings: JobSampling,
): SamplingConflict[] {
  const conflicts: SamplingConflict[] = [];
  for (const field of HARNESS_SAMPLING_FIELDS) {
    const value = request[field];
    if (value === undefined || value === null) continue;
    const { isSame, jobValue } = (FIELD_RULES[field] as FieldRule)(value, settings);
    if (!isSame) conflicts.push({ field, value, jobValue });
  }
  return conflicts;
}

/** The conflicts in a sentence, for a `reject` gateway's 400. */
export function describeSamplingConflicts(conflicts: readonly SamplingConflict[]): string {
  const listed = conflicts
    .map(
      (conflict) => `${conflict.field} ${JSON.stringify(conflict.value)} (the job's: ${conflict.jobValue})`,
    )
    .join(", ");
  return `the sampling distribution is the trainer's and this job refuses a harness's own (harnessSampling "reject"): ${listed}; send none of these fields or the job's values`;
}
