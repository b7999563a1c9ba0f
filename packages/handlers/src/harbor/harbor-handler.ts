import type { SandboxSpec } from "@raas/engine";
import { stageFailure } from "@raas/shared";
import { z } from "zod";
import { defineAgentHandler } from "../base/define-agent-handler";
import { submitToolSpec } from "../base/submit-tool";
import { type VerifierTurn, verifierTurnsOf } from "../base/verifier-turn-rewards";
import { HARBOR_WORKSPACE, type HostEnvironmentPlan } from "./harbor-dockerfile";
import { copyImageWorkdir } from "./harbor-image-workdir";
import { agentPathMap, rewriteHarborPaths } from "./harbor-paths";
import { snapshotWorkspace } from "./harbor-snapshot";
import {
  environmentPlanOf,
  type THarborPayload,
  type THarborTask,
  ZHarborPayload,
} from "./harbor-task.schema";
import { runHarborVerifier } from "./harbor-verifier";
import { fileBytes, workspaceFilesOf } from "./harbor-workspace";

const ZHarborResult = z.object({
  task: z.string().describe("The task's name."),
  verifier: z
    .object({
      mode: z
        .enum(["shared", "separate"])
        .describe("Where test.sh ran: the agent's sandbox, or a fresh one."),
      source: z.enum(["reward.txt", "reward.json"]).describe("The reward file the verifier wrote."),
      rewards: z
        .record(z.string(), z.number())
        .describe("Every key of reward.json (or `reward` from reward.txt)."),
      exitCode: z.number().int().describe("test.sh's exit status."),
      outputTail: z.string().describe("The last 4 KiB of test.sh's output."),
      durationMs: z.number().describe("How long the verifier command took, in ms."),
    })
    .describe("What the task's tests/test.sh reported."),
  environment: z
    .object({
      baseImage: z
        .string()
        .nullable()
        .describe("The Dockerfile's FROM, recorded; the task's image (or the host's) stood in for it."),
      image: z
        .string()
        .nullable()
        .describe("The task's prebuilt image the sandboxes ran on; null: the host image (or the job's)."),
      workdir: z.string().describe("The task's workdir, mapped to /workspace."),
      ignored: z
        .array(z.string())
        .describe("Dockerfile instructions without effect here (or built into the task's image)."),
      notEnforced: z.array(z.string()).describe("task.toml limits recorded but not enforced here."),
    })
    .describe("How the task's environment was honoured."),
});

/** What RUN hands to EVAL: the final workspace (a gzip tar) for a separate verifier (null when shared), and the turns. */
interface HarborArtifacts {
  workspace: Uint8Array | null;
  /** What the verifier reads as `/logs/agent/turns.json`, to attach rewards to turns. */
  turns: VerifierTurn[];
}

const SYSTEM_PROMPT =
  "You are an expert at the Linux command line, working in a sandbox whose working directory is " +
  `${HARBOR_WORKSPACE}, with bash, python and editor tools and no network. Complete the task ` +
  "described by the user, check your work, then call submit. Your result will be verified by tests " +
  "you cannot see.";

function planOf(task: THarborTask): HostEnvironmentPlan {
  const verdict = environmentPlanOf(task);
  // The payload schema refused incompatible tasks; reaching this is a bug, not the policy's doing.
  if (!verdict.isHostCompatible) throw stageFailure("eval", `task ${task.name}: ${verdict.reason}`);
  return verdict.plan;
}

/** The sandbox of the task (agent's and verifier's): environment variables and memory bound. */
function sandboxSpecOf(task: THarborTask, plan: HostEnvironmentPlan): Omit<SandboxSpec, "jobId" | "files"> {
  const map = agentPathMap(plan.workdir, HARBOR_WORKSPACE);
  const env = Object.fromEntries(
    Object.entries({ ...plan.env, ...task.config.environmentEnv }).map(([k, v]) => [
      k,
      rewriteHarborPaths(v, map),
    ]),
  );
  const { memoryMb, image } = task.config;
  return {
    env,
    ...(image !== null ? { image } : {}),
    ...(memoryMb !== null ? { limits: { memoryBytes: memoryMb * 1024 ** 2 } } : {}),
  };
}

function notEnforced(task: THarborTask): string[] {
  const out: string[] = [];
  if (task.config.cpus !== null) out.push(`cpus = ${task.config.cpus}`);
  if (task.config.storageMb !== null) out.push(`storage_mb = ${task.config.storageMb}`);
  return out;
}

/**
 * Harbor task directories (`instruction.md`, `task.toml`, `environment/`, `tests/test.sh`) on the
 * task's prebuilt image (its workdir copied into the workspace) or the host image. INIT places the environment's files in the workspace (never `tests/` or
 * `solution/`); RUN is the agent loop on the instruction; EVAL runs `tests/test.sh` on the agent's
 * final workspace in a fresh sandbox (or, for `[verifier] environment_mode = "shared"`, in the
 * agent's own) and takes the reward its run wrote. See the package README.
 */
export const createHarborHandler = defineAgentHandler<THarborPayload, undefined, HarborArtifacts>({
  kind: "harbor",
  description:
    "Harbor task directories: an instruction, an environment, and tests/test.sh writing the reward.",
  payloadSchema: ZHarborPayload,
  resultSchema: ZHarborResult,
  tools: ["bash", "python", "editor"],
  submitTool: submitToolSpec("Call when the task is complete; ends the task."),
  limits: { maxTurns: 50 },
  keepSandboxForEval: true,
  imageOf: (payload) => payload.task.config.image ?? undefined,
  sandbox(payload) {
    const plan = planOf(payload.task);
    const map = agentPathMap(plan.workdir, HARBOR_WORKSPACE);
    const files = Object.fromEntries(
      workspaceFilesOf(plan, payload.task.environment).map((file) => [file.path, fileBytes(file, map)]),
    );
    return { ...sandboxSpecOf(payload.task, plan), files };
  },
  async setup({ payload, sandbox, signal }) {
    const plan = planOf(payload.task);
    if (payload.task.config.image !== null) await copyImageWorkdir(sandbox, plan.workdir, signal);
    const executables = workspaceFilesOf(plan, payload.task.environment)
      .filter((file) => file.executable)
      .map((file) => file.path);
    if (executables.length === 0) return;
    const run = await sandbox.exec(["chmod", "+x", "--", ...executables], { timeoutMs: 60_000, signal });
    if (run.exitCode !== 0)
      throw stageFailure("sandbox", `marking the task's scripts executable failed: ${run.stderr}`);
  },
  systemPrompt: () => SYSTEM_PROMPT,
  userMessage: (payload) => {
    const plan = planOf(payload.task);
    const instruction = rewriteHarborPaths(
      payload.task.instruction,
      agentPathMap(plan.workdir, HARBOR_WORKSPACE),
    );
    return `Task id: ${payload.taskId}\n\n${instruction.trim()}`;
  },
  async collect({ payload, sandbox, loop, signal }) {
    const turns = verifierTurnsOf(loop);
    if (payload.task.config.verifierMode === "shared") return { workspace: null, turns };
    const workspace = await snapshotWorkspace(sandbox, signal);
    // Whatever the agent left running ends here, before any test runs.
    await sandbox.close();
    return { workspace, turns };
  },
  async evaluate({ payload, artifacts, runSandbox, openSandbox, signal }) {
    const { task } = payload;
    const plan = planOf(task);
    let sandbox = runSandbox;
    if (artifacts.workspace !== null) {
      sandbox = await openSandbox(sandboxSpecOf(task, plan));
      if (!sandbox.uploadTar) throw stageFailure("sandbox", "the sandbox runtime cannot upload a workspace");
      await sandbox.uploadTar(artifacts.workspace);
    }
    if (sandbox === null)
      throw stageFailure("sandbox", "the agent's sandbox is gone before a shared verifier");
    const outcome = await runHarborVerifier(sandbox, {
      tests: task.tests,
      workdir: plan.workdir,
      timeoutSec: task.config.verifierTimeoutSec,
      env: task.config.verifierEnv,
      agentLogs: [{ path: "turns.json", content: JSON.stringify({ turns: artifacts.turns }) }],
      signal,
    });
    const { reward, turnRewards, ...verifier } = outcome;
    return {
      reward,
      turnRewards,
      result: {
        task: task.name,
        verifier: { mode: task.config.verifierMode, ...verifier },
        environment: {
          baseImage: plan.baseImage,
          image: task.config.image,
          workdir: plan.workdir,
          ignored: plan.ignored,
          notEnforced: notEnforced(task),
        },
      },
    };
  },
});
