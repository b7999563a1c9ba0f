import { z } from "zod";

// The parts of Harbor's `task.toml` RaaS reads (Harbor's `TaskConfig`, field names as Harbor
// spells them). Unknown keys are kept out of the way (`loose`), as Harbor ignores them; a known key
// with a wrong type is refused with its path.

const ZSeconds = z.number().positive().max(86_400);
const ZEnvTable = z.record(z.string(), z.string());

/** Harbor's deprecated `memory = "4G"` / `storage = "10G"` spellings. */
const ZSizeString = z.string().regex(/^\s*\d+(\.\d+)?\s*[KMGkmg]\s*$/, "a size such as 512M or 4G");

const ZVerifierSection = z
  .object({
    timeout_sec: ZSeconds.optional(),
    env: ZEnvTable.optional(),
    /**
     * Harbor's `shared` runs the tests in the agent's own sandbox (services the agent started are
     * still up); `separate` in a fresh one. RaaS's default is `separate` (see the README).
     */
    environment_mode: z.enum(["shared", "separate"]).optional(),
  })
  .loose();

const ZAgentSection = z.object({ timeout_sec: ZSeconds.optional() }).loose();

/** MCP transports Harbor knows: `stdio` (a command in the task's container) or a network server. */
const ZMcpTransport = z.enum(["stdio", "sse", "streamable-http"]);

/**
 * One `[[environment.mcp_servers]]` entry, as Harbor's `MCPServerConfig` (its default transport
 * is `sse`; `env` is RaaS's addition). Unknown keys are refused here, unlike elsewhere in the
 * file: a server started without what its entry asks for (a `cwd`, `headers`) would run other
 * than declared.
 */
const ZMcpServerEntry = z
  .object({
    name: z.string().min(1).max(64),
    transport: ZMcpTransport.default("sse"),
    url: z.string().min(1).max(4_096).optional(),
    command: z.string().min(1).max(4_096).optional(),
    args: z.array(z.string()).default([]),
    env: ZEnvTable.optional(),
  })
  .strict()
  .superRefine((server, ctx) => {
    if (server.transport !== "stdio" && server.url === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["url"],
        message: `required for transport "${server.transport}"`,
      });
    if (server.transport === "stdio" && server.command === undefined)
      ctx.addIssue({ code: "custom", path: ["command"], message: 'required for transport "stdio"' });
  });

const ZEnvironmentSection = z
  .object({
    build_timeout_sec: ZSeconds.optional(),
    docker_image: z.string().min(1).optional(),
    cpus: z.number().int().min(1).max(1_024).optional(),
    memory_mb: z.number().int().min(16).max(4_194_304).optional(),
    storage_mb: z.number().int().min(1).max(1_073_741_824).optional(),
    memory: ZSizeString.optional(),
    storage: ZSizeString.optional(),
    gpus: z.number().int().min(0).optional(),
    allow_internet: z.boolean().optional(),
    network_mode: z.enum(["public", "no-network", "allowlist"]).optional(),
    workdir: z.string().startsWith("/").optional(),
    env: ZEnvTable.optional(),
    mcp_servers: z.array(ZMcpServerEntry).max(64).optional(),
  })
  .loose();

export const ZHarborTaskToml = z
  .object({
    schema_version: z.string().optional(),
    version: z.string().optional(),
    task: z
      .object({ name: z.string().min(1).optional() })
      .loose()
      .optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    verifier: ZVerifierSection.optional(),
    agent: ZAgentSection.optional(),
    environment: ZEnvironmentSection.optional(),
    solution: z.object({ env: ZEnvTable.optional() }).loose().optional(),
  })
  .loose();
type THarborTaskToml = z.infer<typeof ZHarborTaskToml>;

/** Harbor's defaults where RaaS needs a value (`VerifierConfig.timeout_sec`). */
const DEFAULT_VERIFIER_TIMEOUT_SEC = 600;

/** A `[[environment.mcp_servers]]` entry, normalized: `command` for stdio, `url` for the network transports. */
const ZHarborMcpServer = z
  .object({
    name: z.string().min(1).max(64).describe("The server's name."),
    transport: ZMcpTransport.describe(
      "`stdio` runs in the sandbox; `sse`/`streamable-http` cannot run here.",
    ),
    command: z.string().max(4_096).nullable().describe("The program of a stdio server, else null."),
    args: z.array(z.string().max(1_048_576)).max(256).describe("Its arguments."),
    env: ZEnvTable.describe("Variables the server runs with (RaaS's addition to Harbor's entry)."),
    url: z.string().max(4_096).nullable().describe("The address of a network server, else null."),
  })
  .strict();

/** What RaaS takes from a task.toml, normalized (deprecated spellings mapped, defaults applied). */
export const ZHarborTaskConfig = z
  .object({
    name: z.string().min(1).max(200).nullable().describe("`[task].name`, when the task has one."),
    agentTimeoutSec: ZSeconds.nullable().describe(
      "`[agent].timeout_sec`: the agent loop's wall-time budget.",
    ),
    verifierTimeoutSec: ZSeconds.describe("`[verifier].timeout_sec`: test.sh's time limit. Default 600."),
    verifierEnv: ZEnvTable.describe("`[verifier].env`: variables test.sh runs with."),
    verifierMode: z
      .enum(["shared", "separate"])
      .describe(
        "`[verifier].environment_mode`: `separate` (default here) or `shared` (the agent's sandbox).",
      ),
    environmentEnv: ZEnvTable.describe("`[environment].env`: variables of every sandbox of the task."),
    cpus: z.number().int().nullable().describe("`[environment].cpus` (recorded; not enforced)."),
    memoryMb: z.number().int().nullable().describe("`[environment].memory_mb`: the sandbox's memory bound."),
    storageMb: z.number().int().nullable().describe("`[environment].storage_mb` (recorded; not enforced)."),
    gpus: z.number().int().describe("`[environment].gpus`; more than 0 cannot run here."),
    dockerImage: z
      .string()
      .nullable()
      .describe(
        "`[environment].docker_image`, as written: a path to the task's image, or a registry name (refused).",
      ),
    image: z
      .string()
      .startsWith("/", { error: "expected an absolute path on the sandbox hosts" })
      .nullable()
      .default(null)
      .describe(
        "The task's prebuilt image, an absolute path (from `docker_image` or an image.sif / image.tar / image.oci beside the task); null: the host image.",
      ),
    workdir: z.string().nullable().describe("`[environment].workdir`, when given."),
    mcpServers: z
      .array(ZHarborMcpServer)
      .max(64)
      .default([])
      .describe("`[[environment.mcp_servers]]`: the MCP servers the agent gets. Default none."),
  })
  .strict();
export type THarborTaskConfig = z.infer<typeof ZHarborTaskConfig>;

function sizeToMb(size: string): number {
  const trimmed = size.trim().toUpperCase();
  const value = Number.parseFloat(trimmed.slice(0, -1));
  const unit = trimmed.at(-1);
  return Math.floor(unit === "G" ? value * 1024 : unit === "M" ? value : value / 1024);
}

/** Normalizes a parsed task.toml (see {@link ZHarborTaskConfig}). */
export function normalizeTaskToml(toml: THarborTaskToml): THarborTaskConfig {
  const env = toml.environment ?? {};
  const memoryMb = env.memory_mb ?? (env.memory !== undefined ? sizeToMb(env.memory) : null);
  const storageMb = env.storage_mb ?? (env.storage !== undefined ? sizeToMb(env.storage) : null);
  return {
    name: toml.task?.name ?? null,
    agentTimeoutSec: toml.agent?.timeout_sec ?? null,
    verifierTimeoutSec: toml.verifier?.timeout_sec ?? DEFAULT_VERIFIER_TIMEOUT_SEC,
    verifierEnv: toml.verifier?.env ?? {},
    verifierMode: toml.verifier?.environment_mode ?? "separate",
    environmentEnv: env.env ?? {},
    cpus: env.cpus ?? null,
    memoryMb,
    storageMb,
    gpus: env.gpus ?? 0,
    dockerImage: env.docker_image ?? null,
    image: null,
    workdir: env.workdir ?? null,
    mcpServers: (env.mcp_servers ?? []).map((server) => ({
      name: server.name,
      transport: server.transport,
      command: server.command ?? null,
      args: server.args,
      env: server.env ?? {},
      url: server.url ?? null,
    })),
  };
}
