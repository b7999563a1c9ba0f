import { z } from "zod";

/** One scripted assistant turn. */
const ZScriptStep = z.object({
  thinking: z.string().optional(),
  /** Filler thinking of this many words (or a range drawn per turn), after `thinking`. */
  thinkingWords: z
    .union([z.number().int().nonnegative(), z.tuple([z.number().int(), z.number().int()])])
    .optional(),
  content: z.string().optional(),
  toolCalls: z.array(z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()) })).optional(),
  /** Exact response text; overrides every other field. */
  raw: z.string().optional(),
});
export type TScriptStep = z.infer<typeof ZScriptStep>;

/** The turns of one task: step k answers turn k; after the last, `repeatLast` or a plain final answer. */
const ZTaskScript = z.object({
  steps: z.array(ZScriptStep).min(1),
  repeatLast: z.boolean().default(false),
});
export type TTaskScript = z.infer<typeof ZTaskScript>;

/**
 * One turn of a harness-agnostic script: exactly one action, played through whatever tools the
 * harness offers (see `harness-agnostic-policy.ts`), after optional thinking.
 */
const ZHarnessStep = z
  .object({
    thinking: z.string().optional(),
    thinkingWords: ZScriptStep.shape.thinkingWords,
    /** Run this command with the harness's shell tool. */
    shell: z.string().optional(),
    /** Write this file (an absolute path) with the harness's write tool, else a shell heredoc. */
    writeFile: z
      .object({ path: z.string().min(1), content: z.string() })
      .strict()
      .optional(),
    /** Answer with this text and no tool call: the harness's agent loop ends. */
    finish: z.string().optional(),
  })
  .strict()
  .refine(
    (step) => [step.shell, step.writeFile, step.finish].filter((action) => action !== undefined).length === 1,
    { message: "a harness step has exactly one of shell, writeFile or finish" },
  );
export type THarnessStep = z.infer<typeof ZHarnessStep>;

/** A harness-agnostic task script: step k answers turn k; after the last, a plain final answer. */
const ZHarnessScript = z.object({ steps: z.array(ZHarnessStep).min(1) });
export type THarnessScript = z.infer<typeof ZHarnessScript>;

export const MALFORMED_MODES = [
  "invalid-json",
  "unclosed-tag",
  "unknown-tool",
  "missing-name",
  "overlong",
] as const;
const ZMalformedMode = z.enum(MALFORMED_MODES);
export type TMalformedMode = z.infer<typeof ZMalformedMode>;

const ZOutcomeScripts = z.object({
  /** Probability in [0, 1] that a trajectory of this task succeeds. */
  probability: z.number().min(0).max(1),
  success: ZTaskScript.optional(),
  failure: ZTaskScript.optional(),
});
export type TOutcomeScripts = z.infer<typeof ZOutcomeScripts>;

/** What the simulated judge answers for a task: a score after some reasoning, or a reply verbatim. */
const ZJudgeGrade = z.union([
  z
    .object({
      score: z.number(),
      reasoning: z.string().default("The response meets some points of the rubric."),
    })
    .strict(),
  z.object({ reply: z.string() }).strict(),
]);

export const ZPolicyConfig = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("scripted"),
    tasks: z.record(z.string(), ZTaskScript).default({}),
    /** Script for tasks not listed; default: think, then run `ls` with bash, forever. */
    default: ZTaskScript.optional(),
  }),
  z.object({
    /** Scripts of abstract actions, mapped per request onto the tools the prompt offers. */
    kind: z.literal("harness-agnostic"),
    tasks: z.record(z.string(), ZHarnessScript).default({}),
  }),
  z.object({
    kind: z.literal("success-probability"),
    tasks: z.record(z.string(), ZOutcomeScripts).default({}),
    default: ZOutcomeScripts.default({ probability: 0.5 }),
  }),
  z.object({
    /** A judge model (`judge` jobs' grader): per-task scores or replies; see `judge-policy.ts`. */
    kind: z.literal("judge"),
    tasks: z.record(z.string(), ZJudgeGrade).default({}),
    /** Tasks not listed: a reply without a score, so an unscripted grade shows as unparseable. */
    default: ZJudgeGrade.default({ reply: "The simulated judge has no script for this task." }),
  }),
  z.object({
    kind: z.literal("malformed"),
    mode: ZMalformedMode.default("invalid-json"),
    tasks: z.record(z.string(), ZMalformedMode).default({}),
  }),
]);
export type TPolicyConfig = z.infer<typeof ZPolicyConfig>;
export type TPolicyConfigInput = z.input<typeof ZPolicyConfig>;
