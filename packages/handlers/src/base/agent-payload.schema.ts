import { ZHarnessSamplingMode, ZImageReference, ZTeacher } from "@raas/shared";
import { z } from "zod";

/** Per-job overrides of the agent loop and sampling; every field optional. */
export const ZAgentOverrides = z
  .object({
    maxTurns: z
      .number()
      .int()
      .min(1)
      .max(1_000)
      .optional()
      .describe("Model turns at most. Default: the handler's."),
    maxContextTokens: z
      .number()
      .int()
      .min(256)
      .max(1_048_576)
      .optional()
      .describe("Prompt + response tokens at most. Default 32_768."),
    maxTokensPerTurn: z
      .number()
      .int()
      .min(1)
      .max(262_144)
      .optional()
      .describe("Response tokens per turn at most (the backend's max_tokens). Default 4_096."),
    timeBudgetMs: z
      .number()
      .int()
      .min(1)
      .max(86_400_000)
      .optional()
      .describe("Wall-time budget of the agent loop in ms."),
    toolTimeoutMs: z
      .number()
      .int()
      .min(1)
      .max(3_600_000)
      .optional()
      .describe("Time limit of one tool call in ms."),
    temperature: z
      .number()
      .min(0)
      .max(10)
      .optional()
      .describe("Sampling temperature. Default: the backend's."),
    topP: z
      .number()
      .gt(0)
      .max(1)
      .optional()
      .describe("Nucleus sampling mass, (0, 1]. Default 1 (no cut; sent, so no server default applies)."),
    topK: z
      .number()
      .int()
      .min(-1)
      .optional()
      .describe("Top-k sampling; -1 disables. Default -1 (no cut; sent, so no server default applies)."),
    seed: z.number().int().optional().describe("Sampling seed. Default: none."),
    topLogprobs: z
      .number()
      .int()
      .min(1)
      .max(20)
      .optional()
      .describe(
        "Top-k logprobs to keep per sampled token, 1..20 (vLLM `logprobs: k`, SGLang `top_logprobs_num: k`): stored on each turn and exported aligned to the response tokens. Default: none asked for. Not supported by NeMo-RL `/generate` backends.",
      ),
    teacher: ZTeacher.optional().describe(
      "On-policy distillation: when RUN ends, the trajectory (the last prompt + response) is scored once on this teacher — `{ policyId }` (a backend registered under that policy) or `{ backendId }` — and the export carries `teacherLogprobs` aligned to the tokens. A teacher that fails leaves the trajectory as it is, with the teacher reported missing and why. vLLM and SGLang backends can score; NeMo-RL cannot. Default: none.",
    ),
    enableThinking: z.boolean().optional().describe("Qwen3 thinking block on or off. Default true."),
    harnessSampling: ZHarnessSamplingMode.optional().describe(
      "`harness` jobs: what the gateway does with sampling fields the harness sends (`temperature`, `top_p`, `top_k`, `min_p`, `seed`, penalties, `logit_bias`, …) that differ from this job's — `override` (default) ignores them and samples with the job's, `reject` answers 400 naming them. Other handlers sample with the job's settings only.",
    ),
  })
  .strict()
  .meta({
    id: "AgentOverrides",
    description: "Per-job overrides of the agent loop and sampling; every field optional.",
  });
export type TAgentOverrides = z.infer<typeof ZAgentOverrides>;

/** One MCP server an environment brings: a stdio command started inside the job's sandbox. */
const ZMcpServer = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, "a server name is 1–64 letters, digits, `_` or `-`")
      .describe("Names the server in listings and failures; unique within the job."),
    command: z.string().min(1).max(4_096).describe("The program, run inside the sandbox (no shell)."),
    args: z.array(z.string().max(1_048_576)).max(256).default([]).describe("Its arguments."),
    env: z
      .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), z.string().max(65_536))
      .default({})
      .describe("Variables added to the sandbox's environment for the server."),
  })
  .strict();

/** The MCP tool servers of a job and how their tools join the handler's. */
export const ZEnvironmentTools = z
  .object({
    servers: z
      .array(ZMcpServer)
      .min(1)
      .max(8)
      .refine((servers) => new Set(servers.map((s) => s.name)).size === servers.length, {
        message: "server names must be unique",
      })
      .describe("MCP servers (stdio) started in the sandbox when RUN begins, stopped when it ends."),
    toolsMode: z
      .enum(["add", "only"])
      .default("add")
      .describe(
        "`add` (default): the servers' tools are offered beside the handler's (bash, python, editor); `only`: instead of them (the finish tool stays).",
      ),
  })
  .strict()
  .meta({
    id: "EnvironmentTools",
    description:
      "MCP tool servers the environment brings: their tools are listed and offered to the model in its own tool format; calls go to the server inside the sandbox. A tool name that collides with an offered tool fails the job (sandbox).",
  });
export type TEnvironmentTools = z.infer<typeof ZEnvironmentTools>;

/** Fields every agent-task payload has; handler payload schemas extend this object. */
export const ZAgentTaskBase = z.object({
  taskId: z
    .string()
    .min(1)
    .max(200)
    .describe("The task instance's id (also shown to the model as `Task id: …`)."),
  agent: ZAgentOverrides.optional(),
  mcp: ZEnvironmentTools.optional(),
  image: ZImageReference.optional().describe(
    "The image the job's sandboxes run on when its task names none (a SWE spec or image pattern, a Harbor task's image name theirs), an absolute path: a rootfs directory, an OCI layout (`path[:tag]`), an OCI or docker save archive, or a SIF. Wins over its run's default image. Default: the run's, else the server's.",
  ),
});
export type TAgentTaskBase = z.infer<typeof ZAgentTaskBase>;
