import { z } from "zod";

// What the `environment.toml` of every dataset environment (reward-fn, judge) has in common,
// snake_case as Harbor's task.toml. Each kind adds its own table and refuses unknown keys.

/** A path inside the environment directory: relative, no empty or `..` segment. */
export const ZRelativeFile = z
  .string()
  .min(1)
  .max(500)
  .refine(
    (path) => !path.startsWith("/") && path.split("/").every((part) => part !== "" && part !== ".."),
    "a path inside the environment directory",
  );

/** The manifest's leading keys: its name and description (both optional), the dataset file. */
export const envManifestHead = {
  name: z.string().min(1).max(200).optional(),
  description: z.string().max(2_000).optional(),
  dataset: ZRelativeFile.default("data.jsonl"),
};

/** The `[agent]` table: the system prompt and turn limit of every task, both optional. */
export const ZEnvAgentSettings = z
  .object({
    system_prompt: z.string().min(1).max(100_000).optional(),
    max_turns: z.number().int().min(1).max(1_000).optional(),
  })
  .strict()
  .prefault({});

/** A dataset row's optional `id`: a string or an integer. */
export const ZEnvRowId = z.union([z.string().min(1).max(200), z.number().int()]).optional();
