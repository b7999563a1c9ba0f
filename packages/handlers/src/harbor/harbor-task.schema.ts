import { hasControlCharacter } from "@raas/shared";
import { z } from "zod";
import { ZAgentTaskBase } from "../base/agent-payload.schema";
import { type HostEnvironmentVerdict, planHostEnvironment } from "./harbor-dockerfile";
import { planImageEnvironment, registryImageProblem } from "./harbor-image";
import { ZHarborTaskConfig } from "./harbor-task-toml.schema";
import { workspaceFilesOf } from "./harbor-workspace";

const MAX_FILES = 2_000;

/** A relative path inside a task directory's part: no `..`, no absolute path, no empty segment. */
const ZRelativePath = z
  .string()
  .min(1)
  .max(1_000)
  .refine(
    (path) =>
      !path.startsWith("/") &&
      !hasControlCharacter(path) &&
      path.split("/").every((part) => part !== "" && part !== "." && part !== ".."),
    "a relative path without . or .. segments or control characters",
  );

const ZHarborFile = z
  .object({
    path: ZRelativePath.describe(
      "Path relative to its part of the task directory (`environment/`, `tests/`, …).",
    ),
    content: z
      .string()
      .max(16 * 1024 ** 2)
      .describe("The file's bytes: UTF-8 text, or base64 when `encoding` says so."),
    encoding: z.enum(["utf8", "base64"]).default("utf8").describe("How `content` is written. Default utf8."),
    executable: z.boolean().default(false).describe("The file's executable bit. Default false."),
  })
  .strict();
export type THarborFile = z.infer<typeof ZHarborFile>;

const ZFiles = z.array(ZHarborFile).max(MAX_FILES);

/** One Harbor task directory as RaaS carries it: read by `loadHarborTask`, shipped in a job payload. */
export const ZHarborTask = z
  .object({
    name: z.string().min(1).max(200).describe("The task's name (`[task].name`, else its directory's)."),
    instruction: z.string().min(1).max(1_000_000).describe("`instruction.md`, shown to the agent."),
    config: ZHarborTaskConfig.describe("`task.toml`, normalized: limits, verifier mode, environment."),
    dockerfile: z
      .string()
      .max(1_000_000)
      .nullable()
      .describe("`environment/Dockerfile`, recorded; null when absent."),
    environment: ZFiles.describe("`environment/` (the Dockerfile's build context), without the Dockerfile."),
    tests: ZFiles.refine(
      (files) => files.some((f) => f.path === "test.sh"),
      "tests/test.sh is missing",
    ).describe("`tests/`, never shown to the agent; `test.sh` is the verifier."),
    solution: ZFiles.nullable().describe("`solution/` (`solve.sh`, the oracle), or null."),
  })
  .strict();
export type THarborTask = z.infer<typeof ZHarborTask>;

/**
 * How the task's environment is honoured: on its prebuilt image (`config.image`) the Dockerfile's
 * workdir and env; on the host image what of the Dockerfile it can apply (or why not).
 */
export function environmentPlanOf(task: Pick<THarborTask, "config" | "dockerfile">): HostEnvironmentVerdict {
  return task.config.image !== null
    ? planImageEnvironment(task.dockerfile, task.config.workdir)
    : planHostEnvironment(task.dockerfile, task.config.workdir);
}

/** Why a task cannot run here (an image it lacks, hardware RaaS lacks, a network tool server), or null. */
export function hostIncompatibility(
  task: Pick<THarborTask, "config" | "dockerfile" | "environment">,
): string | null {
  const registry = task.config.image === null ? registryImageProblem(task.config.dockerImage) : null;
  if (registry !== null) return registry;
  const compose = task.environment.find((f) => /^(docker-)?compose\.ya?ml$/.test(f.path));
  if (compose !== undefined)
    return `environment/${compose.path}: this task needs several containers (images), which is not supported yet`;
  if (task.config.gpus > 0)
    return `task.toml [environment].gpus = ${task.config.gpus}: sandboxes have no GPUs`;
  const network = task.config.mcpServers.find((server) => server.transport !== "stdio");
  if (network !== undefined)
    return `task.toml [[environment.mcp_servers]] "${network.name}": transport "${network.transport}" (${network.url}) is a network MCP server, and sandboxes have no network — the task cannot run here without its tools (only stdio servers, run inside the sandbox, are supported)`;
  const verdict = environmentPlanOf(task);
  if (!verdict.isHostCompatible) return verdict.reason;
  try {
    workspaceFilesOf(verdict.plan, task.environment);
  } catch (error) {
    return `environment/Dockerfile: ${(error as Error).message}`;
  }
  return null;
}

export const ZHarborPayload = ZAgentTaskBase.extend({
  task: ZHarborTask.describe(
    "The task directory's content (`loadHarborTask`): instruction, normalized task.toml, environment, tests, solution.",
  ),
})
  .strict()
  .superRefine((payload, ctx) => {
    const reason = hostIncompatibility(payload.task);
    if (reason !== null)
      ctx.addIssue({ code: "custom", path: ["task"], message: `task ${payload.task.name}: ${reason}` });
    const started = new Set(payload.mcp?.servers.map((server) => server.name));
    for (const server of payload.task.config.mcpServers) {
      if (server.transport === "stdio" && !started.has(server.name))
        ctx.addIssue({
          code: "custom",
          path: ["mcp"],
          message: `task ${payload.task.name} declares the MCP server "${server.name}" (task.toml [[environment.mcp_servers]]), which mcp does not start; harborJobRequest maps a task's servers into mcp`,
        });
    }
  })
  .meta({
    description:
      "A Harbor task directory (instruction, environment, tests), run on its prebuilt image (`task.config.image`) or the host image.",
  });
export type THarborPayload = z.infer<typeof ZHarborPayload>;
