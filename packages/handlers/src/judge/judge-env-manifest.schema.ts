import { z } from "zod";
import {
  envManifestHead,
  ZEnvAgentSettings,
  ZEnvMcpTable,
  ZEnvRowId,
  ZRelativeFile,
} from "../base/environment-manifest.schema";

// `environment.toml` of a judge environment, snake_case as the other environment kinds'. Unknown
// keys are refused: a misspelt `score_max` silently ignored would change every reward.

export const ZJudgeEnvManifest = z
  .object({
    ...envManifestHead,
    judge: z
      .object({
        rubric_file: ZRelativeFile.default("rubric.md"),
        score_min: z.number().finite().default(0),
        score_max: z.number().finite().default(10),
        max_tokens: z.number().int().min(16).max(65_536).default(2_048),
        temperature: z.number().min(0).max(2).default(0),
        timeout_sec: z.number().positive().max(3_600).default(120),
        // The score a reference answer must reach in the oracle check (`raas env verify`);
        // default 80% of the way from score_min to score_max.
        pass_score: z.number().finite().optional(),
      })
      .strict()
      .refine((judge) => judge.score_max > judge.score_min, {
        message: "score_max must be above score_min",
        path: ["score_max"],
      })
      .refine(
        (judge) =>
          judge.pass_score === undefined ||
          (judge.pass_score > judge.score_min && judge.pass_score <= judge.score_max),
        { message: "pass_score must lie above score_min and at most score_max", path: ["pass_score"] },
      )
      .prefault({}),
    agent: ZEnvAgentSettings,
    mcp: ZEnvMcpTable,
  })
  .strict();
export type TJudgeEnvManifest = z.infer<typeof ZJudgeEnvManifest>;

/** One dataset line: the task, optional points of its own added to the rubric, an optional reference. */
export const ZJudgeEnvRow = z
  .object({
    id: ZEnvRowId,
    prompt: z.string().min(1),
    rubric: z.string().min(1).optional(),
    reference: z.string().min(1).optional(),
  })
  .loose();
export type TJudgeEnvRow = z.infer<typeof ZJudgeEnvRow>;
