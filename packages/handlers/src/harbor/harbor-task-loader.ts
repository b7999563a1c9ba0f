import { lstat, readdir, readFile } from "node:fs/promises";
import { basename, join, relative } from "node:path";
import { formatIssues } from "@raas/shared";
import type { TEnvironmentTools } from "../base/agent-payload.schema";
import { invalidFile, parseTomlFile } from "../base/environment-files";
import { HARBOR_WORKSPACE } from "./harbor-dockerfile";
import { findTaskImage, PREBUILT_IMAGE_NAMES } from "./harbor-image";
import { harborTaskTools } from "./harbor-mcp";
import { agentPathMap, rewriteHarborPaths } from "./harbor-paths";
import {
  environmentPlanOf,
  hostIncompatibility,
  type THarborFile,
  type THarborPayload,
  type THarborTask,
  ZHarborTask,
} from "./harbor-task.schema";
import { normalizeTaskToml, ZHarborTaskToml } from "./harbor-task-toml.schema";

/** A task directory read from disk, with whether the host image can run it. */
export interface LoadedHarborTask {
  /** The directory it was read from. */
  dir: string;
  task: THarborTask;
  /** Why it cannot run here (it needs an image, GPUs, a network MCP server), or null. */
  hostIncompatibility: string | null;
  /** The payload's `mcp` for the task's `[[environment.mcp_servers]]`; undefined without any (or when it cannot run). */
  mcp: TEnvironmentTools | undefined;
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function fileOf(path: string, bytes: Buffer, mode: number): THarborFile {
  let text: string | null = null;
  if (!bytes.includes(0)) {
    try {
      text = utf8.decode(bytes);
    } catch {
      text = null;
    }
  }
  return {
    path,
    content: text ?? bytes.toString("base64"),
    encoding: text === null ? "base64" : "utf8",
    executable: (mode & 0o111) !== 0,
  };
}

/**
 * Every regular file below `root`, sorted; a symlink or special file is refused by name. Entries
 * of `root` itself named in `skip` (a prebuilt image) are left out.
 */
async function readTree(root: string, taskDir: string, skip: readonly string[] = []): Promise<THarborFile[]> {
  const files: THarborFile[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (dir === root && skip.includes(entry.name)) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) {
        const stat = await lstat(path);
        files.push(fileOf(relative(root, path).split("\\").join("/"), await readFile(path), stat.mode));
      } else
        throw invalidFile(
          join(basename(taskDir), relative(taskDir, path)),
          "only regular files and directories are read (a symlink or special file)",
        );
    }
  };
  if (await exists(root)) await walk(root);
  return files;
}

async function readTaskToml(dir: string) {
  const file = join(basename(dir), "task.toml");
  if (!(await exists(join(dir, "task.toml")))) throw invalidFile(file, "missing (every Harbor task has one)");
  const text = await readFile(join(dir, "task.toml"), "utf8");
  const toml = parseTomlFile(file, text, ZHarborTaskToml, "task.toml");
  const servers = toml.environment?.mcp_servers ?? [];
  for (const [section, env] of [
    ["environment", toml.environment?.env],
    ["verifier", toml.verifier?.env],
    ...servers.map((server, index) => [`environment.mcp_servers[${index}]`, server.env] as const),
  ] as const) {
    for (const [key, value] of Object.entries(env ?? {})) {
      if (value.includes("${"))
        throw invalidFile(
          file,
          `${section}.env.${key}: \${VAR} templating reads the host's environment, which RaaS does not pass to tasks`,
        );
    }
  }
  return normalizeTaskToml(toml);
}

/**
 * Reads one Harbor task directory: `instruction.md`, `task.toml`, `environment/` (its Dockerfile
 * recorded apart), `tests/` (with `test.sh`) and `solution/`. A missing or malformed part throws a
 * `VALIDATION_FAILED` failure naming the file and the field.
 */
export async function loadHarborTask(dir: string): Promise<LoadedHarborTask> {
  const name = basename(dir);
  const config = await readTaskToml(dir);
  const instructionPath = join(dir, "instruction.md");
  if (!(await exists(instructionPath)))
    throw invalidFile(join(name, "instruction.md"), "missing (the agent's instruction)");
  if (!(await exists(join(dir, "tests", "test.sh"))))
    throw invalidFile(join(name, "tests/test.sh"), "missing (the verifier)");
  let image: string | null;
  try {
    image = findTaskImage(dir, config.dockerImage);
  } catch (error) {
    throw invalidFile(join(name, "task.toml"), (error as Error).message);
  }
  const environment = await readTree(join(dir, "environment"), dir, PREBUILT_IMAGE_NAMES);
  const dockerfile = environment.find((f) => f.path === "Dockerfile");
  if (dockerfile?.encoding === "base64")
    throw invalidFile(join(name, "environment/Dockerfile"), "not UTF-8 text");
  const solution = await readTree(join(dir, "solution"), dir);
  const candidate = {
    name: config.name ?? name,
    instruction: await readFile(instructionPath, "utf8"),
    config: { ...config, image },
    dockerfile: dockerfile?.content ?? null,
    environment: environment.filter((f) => f.path !== "Dockerfile"),
    tests: await readTree(join(dir, "tests"), dir),
    solution: solution.length > 0 ? solution : null,
  };
  const parsed = ZHarborTask.safeParse(candidate);
  if (!parsed.success) throw invalidFile(name, formatIssues(parsed.error.issues, { root: "task" }));
  const task = parsed.data;
  const verdict = environmentPlanOf(task);
  const incompatibility = hostIncompatibility(task);
  const mcp =
    incompatibility === null && verdict.isHostCompatible
      ? await harborTaskTools(dir, task, verdict.plan.workdir)
      : undefined;
  return { dir, task, hostIncompatibility: incompatibility, mcp };
}

/**
 * Reads a dataset: `dir` itself when it is a task directory (it has a task.toml), else each of its
 * subdirectories that has a `task.toml` or an `instruction.md`, sorted by name.
 */
export async function loadHarborDataset(dir: string): Promise<LoadedHarborTask[]> {
  if (await exists(join(dir, "task.toml"))) return [await loadHarborTask(dir)];
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory());
  entries.sort((a, b) => a.name.localeCompare(b.name));
  const tasks: LoadedHarborTask[] = [];
  for (const entry of entries) {
    const taskDir = join(dir, entry.name);
    if ((await exists(join(taskDir, "task.toml"))) || (await exists(join(taskDir, "instruction.md"))))
      tasks.push(await loadHarborTask(taskDir));
  }
  if (tasks.length === 0) throw invalidFile(dir, "no task directories (none has a task.toml)");
  return tasks;
}

/** RUN beyond the agent's own budget: the workspace snapshot (up to 300 s) and a margin, in ms. */
const RUN_SLACK_MS = 360_000;
/** EVAL beyond the tests' own limit: a sandbox, the workspace upload, the wrapper, in ms. */
const EVAL_SLACK_MS = 120_000;
const MAX_STAGE_MS = 86_400_000;

/** A `harbor` job's submit request: its payload and the stage budgets its task.toml implies. */
export interface HarborJobRequest {
  kind: "harbor";
  payload: THarborPayload;
  timeoutsMs: { run?: number; eval: number };
}

/**
 * The submit request of a loaded task, refused when the task cannot run here (`hostIncompatibility`). The
 * task's `[agent].timeout_sec` becomes the agent loop's `agent.timeBudgetMs` (unless `agent` sets
 * one) and, with a margin, the RUN budget; `[verifier].timeout_sec`, with a margin, the EVAL
 * budget — so the task's own limits end a job before the server's stage budgets do. The task's
 * MCP servers (`[[environment.mcp_servers]]`) become the payload's `mcp`.
 */
export function harborJobRequest(
  loaded: LoadedHarborTask,
  options: { taskId?: string; agent?: THarborPayload["agent"] } = {},
): HarborJobRequest {
  if (loaded.hostIncompatibility !== null) throw invalidFile(loaded.dir, loaded.hostIncompatibility);
  const { agentTimeoutSec, verifierTimeoutSec } = loaded.task.config;
  const budget = agentTimeoutSec !== null ? { timeBudgetMs: Math.round(agentTimeoutSec * 1000) } : {};
  const agent = { ...budget, ...options.agent };
  const runMs = agent.timeBudgetMs !== undefined ? agent.timeBudgetMs + RUN_SLACK_MS : undefined;
  const evalMs = Math.ceil(verifierTimeoutSec) * 1000 + EVAL_SLACK_MS;
  return {
    kind: "harbor",
    payload: {
      taskId: options.taskId ?? loaded.task.name,
      task: loaded.task,
      ...(loaded.mcp !== undefined ? { mcp: loaded.mcp } : {}),
      ...(Object.keys(agent).length > 0 ? { agent } : {}),
    },
    timeoutsMs: {
      ...(runMs !== undefined ? { run: Math.min(runMs, MAX_STAGE_MS) } : {}),
      eval: Math.min(evalMs, MAX_STAGE_MS),
    },
  };
}

/**
 * The task's `solution/solve.sh` with its paths mapped as in the agent's sandbox (the workdir is
 * `/workspace`): what an oracle run executes there. Null when the task has no solution.
 */
export function harborOracleScript(task: THarborTask): string | null {
  const solve = task.solution?.find((file) => file.path === "solve.sh");
  if (solve === undefined || solve.encoding !== "utf8") return null;
  const verdict = environmentPlanOf(task);
  if (!verdict.isHostCompatible) return null;
  return rewriteHarborPaths(solve.content, agentPathMap(verdict.plan.workdir, HARBOR_WORKSPACE));
}
