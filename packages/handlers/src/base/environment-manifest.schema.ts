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

/**
 * One `[[mcp.servers]]` entry: a stdio MCP server started in each task's sandbox. `source` names a
 * file of the environment whose text is appended to `args` (`args = ["-I", "-c"]` for a Python
 * server), so the server travels in the job's payload and any worker can start it.
 */
const ZEnvMcpServer = z
  .object({
    name: z.string().min(1).max(64),
    command: z.string().min(1).max(4_096),
    args: z.array(z.string().max(65_536)).max(255).default([]),
    env: z.record(z.string(), z.string()).default({}),
    source: ZRelativeFile.optional(),
  })
  .strict();
export type TEnvMcpServer = z.infer<typeof ZEnvMcpServer>;

/** The `[mcp]` table: the tool servers every task of the environment brings, and how their tools join. */
export const ZEnvMcpTable = z
  .object({
    tools_mode: z.enum(["add", "only"]).default("add"),
    servers: z.array(ZEnvMcpServer).min(1).max(8),
  })
  .strict()
  .optional();
export type TEnvMcpTable = z.infer<typeof ZEnvMcpTable>;
