import { z } from "zod";

// `environment.toml` of a judge environment, snake_case as the other environment kinds'. Unknown
// keys are refused: a misspelt `score_max` silently ignored would change every reward.

const ZRelativeFile = z
  .string()
  .min(1)
  .max(500)
  .refine(
    (path) => !path.startsWith("/") && path.split("/").every((part) => part !== "" && part !== ".."),
    "a path inside the environment directory",
  );

export const ZJudgeEnvManifest = z
  .object({
    name: z.string().min(1).max(200).optional(),
    description: z.string().max(2_000).optional(),
    dataset: ZRelativeFile.default("data.jsonl"),
    judge: z
      .object({
        rubric_file: ZRelativeFile.default("rubric.md"),
        score_min: z.number().finite().default(0),
        score_max: z.number().finite().default(10),
        max_tokens: z.number().int().min(16).max(65_536).default(2_048),
        temperature: z.number().min(0).max(2).default(0),
        timeout_sec: z.number().positive().max(3_600).default(120),
      })
      .strict()
      .refine((judge) => judge.score_max > judge.score_min, {
        message: "score_max must be above score_min",
        path: ["score_max"],
      })
      .prefault({}),
    agent: z
      .object({
        system_prompt: z.string().min(1).max(100_000).optional(),
        max_turns: z.number().int().min(1).max(1_000).optional(),
      })
      .strict()
      .prefault({}),
  })
  .strict();
export type TJudgeEnvManifest = z.infer<typeof ZJudgeEnvManifest>;

/** One dataset line: the task, optional points of its own added to the rubric, an optional reference. */
export const ZJudgeEnvRow = z
  .object({
    id: z.union([z.string().min(1).max(200), z.number().int()]).optional(),
    prompt: z.string().min(1),
    rubric: z.string().min(1).optional(),
    reference: z.string().min(1).optional(),
  })
  .loose();
export type TJudgeEnvRow = z.infer<typeof ZJudgeEnvRow>;
