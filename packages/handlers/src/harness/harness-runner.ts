import type {
  AgentLoopRequest,
  AgentLoopResult,
  AgentLoopRunner,
  HarnessSamplingPolicy,
  Sandbox,
  SandboxExecResult,
  StageContext,
} from "@raas/engine";
import { stageFailure } from "@raas/shared";
import { asStageFailure, guardSandbox } from "../base/infrastructure-guard";
import { execPolicyCommand } from "../base/policy-exec";
import type { HarnessGateway } from "./harness-gateway.types";
import { callsAsAgentTurns, recordCallsAsTurns } from "./harness-turns";
import type { HarnessLaunch } from "./recipes/recipe-launch";

/** Where the harness, its task file and its answer go (in the workspace, removed after the run). */
const HARNESS_DIR = ".raas-harness";
export const HARNESS_PATH = `/workspace/${HARNESS_DIR}`;
/** Characters of an answer file read; a longer answer is cut. */
const MAX_ANSWER_CHARS = 100_000;
const STEP_TIMEOUT_MS = 60_000;

/** What one harness run needs besides the kind's request. */
export interface HarnessRunOptions {
  gateway: HarnessGateway;
  /** Every model call of the session samples with these settings, in this mode. */
  sampling: HarnessSamplingPolicy;
  /**
   * The harness to start for the kind's request, given the key the bridge expects: argv (paths of
   * the shipped examples are under `/workspace/.raas-harness/`), variables, and files written into
   * the harness directory by name (the examples and the payload's `files`, or a recipe's config).
   */
  launch: (request: AgentLoopRequest, apiKey: string) => HarnessLaunch;
  /** Loopback port of the gateway inside the sandbox (a recipe's config names it). Default any free one. */
  gatewayPort?: number;
  timeoutMs: number;
}

/** The RUN context parts a harness run uses (the job, its cleanups and its signal). */
type HarnessStage = Pick<StageContext<unknown>, "job" | "defer" | "signal">;

/**
 * A harness as the agent of a kind's RUN: the job's inference gateway bridged into the INIT
 * sandbox (over its Unix-socket channel, by the loopback forwarder: the harness gets only
 * `OPENAI_BASE_URL`/`OPENAI_API_KEY`), the harness and the kind's task file written, the command
 * run under its time limit, the gateway's calls stored as the job's turns (index = arrival order).
 */
export function createHarnessRunner(stage: HarnessStage, options: HarnessRunOptions): AgentLoopRunner {
  return {
    // The gateway's trace certificate speaks for the tokens; there are no loop turns to check.
    checksDrift: false,
    run: (request) => runHarness(stage, options, request),
  };
}

async function runHarness(
  stage: HarnessStage,
  options: HarnessRunOptions,
  request: AgentLoopRequest,
): Promise<AgentLoopResult> {
  const { sandbox, signal } = request;
  const channel = sandbox.hostChannel?.();
  if (!channel) throw stageFailure("sandbox", "this sandbox runtime offers no host channel for the gateway");
  const bridge = await asStageFailure("sandbox", "opening the gateway bridge failed", signal, () =>
    options.gateway.openBridge(stage.job.id, channel.hostDir, options.sampling),
  );
  stage.defer(() => bridge.close());
  const guarded = guardSandbox(sandbox, signal);
  const answerFile = `${HARNESS_PATH}/answer.txt`;
  const launch = options.launch(request, bridge.apiKey);
  await writeHarnessFiles(guarded, launch.files, {
    system: request.systemPrompt,
    user: request.userMessage,
    cwd: request.cwd,
    answerFile,
  });
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
      ...(options.gatewayPort !== undefined ? ["--port", String(options.gatewayPort)] : []),
      "--",
      ...launch.argv,
    ],
    {
      cwd: request.cwd,
      env: { ...launch.env, RAAS_TASK_FILE: `${HARNESS_PATH}/task.json`, RAAS_ANSWER_FILE: answerFile },
      ...(launch.addressSpaceBytes !== undefined && { addressSpaceBytes: launch.addressSpaceBytes }),
      timeoutMs: options.timeoutMs,
      signal,
    },
  );
  const durationMs = Date.now() - startedAt;
  const calls = await asStageFailure("sandbox", "reading the gateway's calls failed", signal, () =>
    options.gateway.listCalls(stage.job.id),
  );
  recordCallsAsTurns(request.recorder, calls);
  const answer = await readAnswer(guarded, answerFile, signal);
  // Out of the workspace before the kind collects it (a Harbor snapshot, a diff).
  await guarded.exec(["rm", "-rf", "--", HARNESS_PATH], { timeoutMs: STEP_TIMEOUT_MS, signal });
  return loopResultOf(options, result, answer, callsAsAgentTurns(calls), durationMs);
}

async function writeHarnessFiles(
  sandbox: Sandbox,
  files: Readonly<Record<string, string>>,
  task: { system: string; user: string; cwd: string; answerFile: string },
): Promise<void> {
  // A fork of a group's INIT or a retried RUN starts without a stale answer.
  await sandbox.exec(["rm", "-rf", "--", HARNESS_PATH], { timeoutMs: STEP_TIMEOUT_MS });
  for (const [name, content] of Object.entries(files)) {
    await sandbox.writeFile(`${HARNESS_DIR}/${name.replace(/^\/+/, "")}`, content);
  }
  await sandbox.writeFile(`${HARNESS_DIR}/task.json`, JSON.stringify(task));
}

/** The answer file's text (a regular file only: never a FIFO or a device), or null when none. */
async function readAnswer(sandbox: Sandbox, path: string, signal: AbortSignal): Promise<string | null> {
  const read = await sandbox.exec(
    [
      "bash",
      "-c",
      'if [ -f "$1" ] && [ ! -L "$1" ]; then head -c "$2" -- "$1"; else exit 3; fi',
      "_",
      path,
      String(MAX_ANSWER_CHARS * 4),
    ],
    { timeoutMs: STEP_TIMEOUT_MS, signal },
  );
  if (read.exitCode !== 0) return null;
  return read.stdout.slice(0, MAX_ANSWER_CHARS).trim();
}

function loopResultOf(
  options: HarnessRunOptions,
  result: SandboxExecResult,
  answer: string | null,
  turns: AgentLoopResult["turns"],
  durationMs: number,
): AgentLoopResult {
  const ended = result.timedOut
    ? `the harness ran past its ${options.timeoutMs} ms`
    : `the harness exited with code ${result.exitCode}${result.signal ? ` (${result.signal})` : ""}`;
  const answerNote = answer === null ? "no answer file" : `answer file of ${answer.length} characters`;
  const toolCalls = turns.flatMap((turn) => turn.toolCalls);
  return {
    stopReason: result.timedOut ? "time_budget" : "final_answer",
    stopMessage: `${ended}; ${turns.length} model calls; ${answerNote}; output: ${result.stdout.slice(-500)}${result.stderr.slice(-1_500)}`,
    turns,
    finalContent: answer ?? result.stdout.slice(-2_000),
    submission: answer === null ? null : { name: "submit", arguments: { answer } },
    toolCallCount: toolCalls.length,
    events: [],
    conversationIds: [],
    responseTokens: turns.reduce((sum, turn) => sum + turn.responseIds.length, 0),
    durationMs,
  };
}
