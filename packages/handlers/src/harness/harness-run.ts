import type { HarnessSamplingPolicy, RunContext } from "@raas/engine";
import type { TGatewayCallRecord } from "@raas/shared";
import { stageFailure } from "@raas/shared";
import type { AgentHandlerDeps, AgentInitOutput, AgentRunOutput } from "../base/agent-handler.types";
import { asStageFailure, guardSandbox } from "../base/infrastructure-guard";
import { resolveJobSampling } from "../base/job-sampling";
import { execPolicyCommand } from "../base/policy-exec";
import { runStep, SweStepError } from "../swe/repo-materializer";
import type { SweArtifacts } from "../swe/swe-handler";
import type { TSwePayload } from "../swe/swe-payload.schema";
import { SWE_SYSTEM_PROMPT, sweUserMessage } from "../swe/swe-prompt";
import { extractDiffScript, repoPath } from "../swe/swe-shell-scripts";
import type { HarnessGateway, THarnessPayload } from "./harness-handler";

/** Where the harness and its task file go, relative to the workspace (outside the repository). */
const HARNESS_DIR = ".raas-harness";

type SweInit = AgentInitOutput<{ repoDir: string }>;
type SweRun = AgentRunOutput<SweArtifacts>;
type HarnessRunContext = RunContext<THarnessPayload, SweInit>;
type Sandbox = SweInit["sandbox"];
type HarnessResult = Awaited<ReturnType<typeof execPolicyCommand>>;

/**
 * RUN of a `harness` job: the gateway bridged into the sandbox, the harness and its task file
 * written, the command run under its time limit, the gateway's calls stored as turns, the diff
 * taken.
 */
export async function runHarnessStage(
  gateway: HarnessGateway,
  deps: AgentHandlerDeps,
  exampleHarness: string,
  ctx: HarnessRunContext,
): Promise<SweRun> {
  const { sandbox } = ctx.init;
  ctx.defer(() => sandbox.close());
  const channel = sandbox.hostChannel?.();
  if (!channel) throw stageFailure("sandbox", "this sandbox runtime offers no host channel for the gateway");
  const bridge = await openGatewayBridge(gateway, deps, ctx, channel.hostDir);
  const guarded = guardSandbox(sandbox, ctx.signal);
  const { cwd, taskFile } = await writeHarnessFiles(guarded, ctx.payload, exampleHarness);
  const command = ctx.payload.command ?? ["python3", `/workspace/${HARNESS_DIR}/swe_agent.py`];
  const startedAt = Date.now();
  // The harness is the policy's agent: a limit it hits is the policy's doing, not infrastructure.
  const result = await execPolicyCommand(
    sandbox,
    [
      "node",
      channel.forwarderPath,
      "--socket",
      `${channel.sandboxDir}/${bridge.socketName}`,
      "--api-key",
      bridge.apiKey,
      "--",
      ...command,
    ],
    { cwd, env: { RAAS_TASK_FILE: taskFile }, timeoutMs: ctx.payload.timeoutMs, signal: ctx.signal },
  );
  const calls = await gateway.listCalls(ctx.job.id);
  recordCallsAsTurns(ctx, calls);
  const artifacts = await collectDiff(guarded, ctx.payload.task, ctx.signal);
  return harnessRunOutput(ctx.payload, result, calls.length, Date.now() - startedAt, artifacts);
}

/** Every model call of the session samples with the job's settings, in the job's mode. */
async function openGatewayBridge(
  gateway: HarnessGateway,
  deps: AgentHandlerDeps,
  ctx: HarnessRunContext,
  hostDir: string,
): Promise<Awaited<ReturnType<HarnessGateway["openBridge"]>>> {
  const sampling: HarnessSamplingPolicy = {
    settings: resolveJobSampling(deps.defaults ?? {}, ctx.payload.agent),
    mode: ctx.payload.agent?.harnessSampling ?? "override",
  };
  const bridge = await asStageFailure("sandbox", "opening the gateway bridge failed", ctx.signal, () =>
    gateway.openBridge(ctx.job.id, hostDir, sampling),
  );
  ctx.defer(() => bridge.close());
  return bridge;
}

/** The example harness, the payload's files and the task file; returns the repository and task file paths. */
async function writeHarnessFiles(
  sandbox: Sandbox,
  payload: THarnessPayload,
  exampleHarness: string,
): Promise<{ cwd: string; taskFile: string }> {
  const { task } = payload;
  const cwd = repoPath(task.instance.repo);
  await sandbox.writeFile(`${HARNESS_DIR}/swe_agent.py`, exampleHarness);
  for (const [name, content] of Object.entries(payload.files)) {
    await sandbox.writeFile(`${HARNESS_DIR}/${name.replace(/^\/+/, "")}`, content);
  }
  await sandbox.writeFile(
    `${HARNESS_DIR}/task.json`,
    JSON.stringify({ system: SWE_SYSTEM_PROMPT, user: sweUserMessage(task), cwd }),
  );
  return { cwd, taskFile: `/workspace/${HARNESS_DIR}/task.json` };
}

/**
 * Each call is stored as a turn too (the job store keeps the ids; the trajectory page shows
 * them). Interleaved sub-agents do not form one stream: read `jobs.gatewayTraces` for the
 * chains and their certificate.
 */
function recordCallsAsTurns(ctx: HarnessRunContext, calls: TGatewayCallRecord[]): void {
  for (const call of calls) {
    ctx.record.turn({
      index: call.seq,
      promptIds: call.promptIds,
      responseIds: call.responseIds,
      logprobs: call.logprobs,
      backendId: call.backendId,
      weightVersion: call.weightVersion,
      weightVersionSpans: null,
      cachedPromptTokens: call.cachedPromptTokens,
      latencyMs: call.latencyMs,
      finishReason: call.finishReason,
      text: null,
      sampling: call.sampling ?? null,
    });
  }
}

function harnessRunOutput(
  payload: THarnessPayload,
  result: HarnessResult,
  callCount: number,
  durationMs: number,
  artifacts: SweArtifacts,
): SweRun {
  const stopMessage = result.timedOut
    ? `the harness ran past its ${payload.timeoutMs} ms`
    : `the harness exited with code ${result.exitCode}${result.signal ? ` (${result.signal})` : ""}`;
  return {
    summary: {
      stopReason: result.timedOut ? "time_budget" : "final_answer",
      stopMessage: `${stopMessage}; ${callCount} model calls; output: ${result.stdout.slice(-500)}${result.stderr.slice(-1_500)}`,
      turns: callCount,
      toolCalls: 0,
      responseTokens: 0,
      finalContent: result.stdout.slice(-2_000),
      submission: null,
      events: [],
      durationMs,
    },
    artifacts,
    // The gateway's trace certificate speaks for the tokens; there are no loop turns to check.
    drift: { isConsistent: true, turnsChecked: 0, violations: [] },
  };
}

async function collectDiff(
  sandbox: Parameters<typeof runStep>[0],
  task: TSwePayload,
  signal: AbortSignal,
): Promise<SweArtifacts> {
  try {
    const diff = await runStep(
      sandbox,
      "taking the diff",
      extractDiffScript(task.instance.repo, task.instance.base_commit),
      {
        timeoutMs: 300_000,
        signal,
      },
    );
    if (diff.truncated)
      return { modelPatch: null, diffError: "the diff against base_commit is larger than 16 MiB" };
    return { modelPatch: diff.stdout, diffError: null };
  } catch (error) {
    if (error instanceof SweStepError) return { modelPatch: null, diffError: error.message };
    throw error;
  }
}
