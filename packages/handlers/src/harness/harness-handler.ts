import { readFileSync } from "node:fs";
import {
  type EvalContext,
  type HarnessSamplingPolicy,
  type RunContext,
  type StageContext,
  StageFailure,
  type TaskHandler,
} from "@raas/engine";
import type { TGatewayCallRecord } from "@raas/shared";
import { z } from "zod";
import type { AgentHandlerDeps, AgentInitOutput, AgentRunOutput } from "../base/agent-handler.types";
import { ZAgentOverrides } from "../base/agent-payload.schema";
import { asStageFailure, guardSandbox } from "../base/infrastructure-guard";
import { resolveJobSampling } from "../base/job-sampling";
import { execPolicyCommand } from "../base/policy-exec";
import { runStep, SweStepError } from "../swe/repo-materializer";
import { createSweHandlerFactory, type SweArtifacts, type SweHandlerConfig } from "../swe/swe-handler";
import { type TSwePayload, ZSwePayload } from "../swe/swe-payload.schema";
import { SWE_SYSTEM_PROMPT, sweUserMessage } from "../swe/swe-prompt";
import { extractDiffScript, repoPath } from "../swe/swe-shell-scripts";

/** The host side of a job's inference gateway, as a harness reaches it from its sandbox. */
export interface HarnessGateway {
  /**
   * Serves the job's gateway session on a Unix socket in `hostDir` (a directory the sandbox
   * shares) and returns the socket's file name and the API key the harness sends. Every call of
   * the session samples with `sampling`'s settings, whatever the harness sends.
   */
  openBridge(
    jobId: string,
    hostDir: string,
    sampling: HarnessSamplingPolicy,
  ): Promise<{ socketName: string; apiKey: string; close(): Promise<void> }>;
  /** The model calls the job made through the gateway, in arrival order. */
  listCalls(jobId: string): Promise<TGatewayCallRecord[]>;
}

/** Payload of a `harness` job: a swe task and the harness that solves it. */
export const ZHarnessPayload = z
  .object({
    task: ZSwePayload.describe("The task, as a `swe` job's payload (INIT and EVAL are the swe handler's)."),
    command: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe(
        "argv of the harness, run in the repository with OPENAI_BASE_URL, OPENAI_API_KEY and RAAS_TASK_FILE set. Default the shipped example: `python3 <dir>/swe_agent.py`.",
      ),
    files: z
      .record(z.string(), z.string())
      .default({})
      .describe(
        "Files written into the harness directory (`/workspace/.raas-harness/`) before RUN, by name.",
      ),
    timeoutMs: z
      .number()
      .int()
      .min(1_000)
      .max(3_600_000)
      .default(600_000)
      .describe("Time limit of the harness in ms (1_000 to 3_600_000). Default 600_000."),
    agent: ZAgentOverrides.optional().describe(
      "The job's sampling (`temperature`, `topP`, `topK`, `seed`; a step's `agent` lands here) and `harnessSampling`: every model call samples with these, not with what the harness sends (`override`, default) or a harness sending others is refused (`reject`). The loop limits do not apply (the harness runs its own loop).",
    ),
  })
  .strict();
export type THarnessPayload = z.infer<typeof ZHarnessPayload>;

/** Where the harness and its task file go, relative to the workspace (outside the repository). */
const HARNESS_DIR = ".raas-harness";
const EXAMPLE_HARNESS = readFileSync(new URL("../../harnesses/swe_agent.py", import.meta.url), "utf8");

type SweInit = AgentInitOutput<{ repoDir: string }>;
type SweRun = AgentRunOutput<SweArtifacts>;

/**
 * `harness`: bring your own agent. INIT prepares the swe task in a sandbox (the swe handler's
 * INIT); RUN starts the harness command inside it with the job's inference gateway — reached
 * over the sandbox's Unix-socket channel by the loopback forwarder, the harness gets only
 * `OPENAI_BASE_URL`/`OPENAI_API_KEY` — and a time limit, then takes the repository's diff; EVAL
 * grades it with the swe grader in a fresh sandbox. The model calls are recorded by the gateway
 * (the trajectory's traces and certificate) and stored as the job's turns (index = arrival order).
 */
export function createHarnessHandlerFactory(config: SweHandlerConfig & { gateway: HarnessGateway }) {
  const sweFactory = createSweHandlerFactory(config);
  return (deps: AgentHandlerDeps): TaskHandler<THarnessPayload, SweInit, SweRun> => {
    const swe = sweFactory(deps);
    const asSwe = <C extends { payload: THarnessPayload }>(ctx: C) => ({ ...ctx, payload: ctx.payload.task });
    return {
      kind: "harness",
      description:
        "A harness of your own (any OpenAI-API agent) solving a swe task through the inference gateway.",
      payloadSchema: ZHarnessPayload,
      resultSchema: swe.resultSchema,
      async init(ctx: StageContext<THarnessPayload>) {
        if (ctx.payload.task.modelPatch !== undefined) {
          throw new StageFailure(
            "eval",
            "a harness job runs its harness: give no modelPatch (grade it with a swe job)",
          );
        }
        return (await swe.init(asSwe(ctx) as StageContext<TSwePayload>)) as SweInit;
      },
      async run(ctx: RunContext<THarnessPayload, SweInit>) {
        const { sandbox } = ctx.init;
        ctx.defer(() => sandbox.close());
        const channel = sandbox.hostChannel?.();
        if (!channel)
          throw new StageFailure("sandbox", "this sandbox runtime offers no host channel for the gateway");
        const sampling: HarnessSamplingPolicy = {
          settings: resolveJobSampling(deps.defaults ?? {}, ctx.payload.agent),
          mode: ctx.payload.agent?.harnessSampling ?? "override",
        };
        const bridge = await asStageFailure("sandbox", "opening the gateway bridge failed", ctx.signal, () =>
          config.gateway.openBridge(ctx.job.id, channel.hostDir, sampling),
        );
        ctx.defer(() => bridge.close());
        const guarded = guardSandbox(sandbox, ctx.signal);
        const task = ctx.payload.task;
        const cwd = repoPath(task.instance.repo);
        await guarded.writeFile(`${HARNESS_DIR}/swe_agent.py`, EXAMPLE_HARNESS);
        for (const [name, content] of Object.entries(ctx.payload.files)) {
          await guarded.writeFile(`${HARNESS_DIR}/${name.replace(/^\/+/, "")}`, content);
        }
        const taskFile = `/workspace/${HARNESS_DIR}/task.json`;
        await guarded.writeFile(
          `${HARNESS_DIR}/task.json`,
          JSON.stringify({ system: SWE_SYSTEM_PROMPT, user: sweUserMessage(task), cwd }),
        );
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
        const calls = await config.gateway.listCalls(ctx.job.id);
        // Each call is stored as a turn too (the job store keeps the ids; the trajectory page shows
        // them). Interleaved sub-agents do not form one stream: read `jobs.gatewayTraces` for the
        // chains and their certificate.
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
        const stopMessage = result.timedOut
          ? `the harness ran past its ${ctx.payload.timeoutMs} ms`
          : `the harness exited with code ${result.exitCode}${result.signal ? ` (${result.signal})` : ""}`;
        const artifacts = await collectDiff(guarded, task, ctx.signal);
        return {
          summary: {
            stopReason: result.timedOut ? "time_budget" : "final_answer",
            stopMessage: `${stopMessage}; ${calls.length} model calls; output: ${result.stdout.slice(-500)}${result.stderr.slice(-1_500)}`,
            turns: calls.length,
            toolCalls: 0,
            responseTokens: 0,
            finalContent: result.stdout.slice(-2_000),
            submission: null,
            events: [],
            durationMs: Date.now() - startedAt,
          },
          artifacts,
          // The gateway's trace certificate speaks for the tokens; there are no loop turns to check.
          drift: { isConsistent: true, turnsChecked: 0, violations: [] },
        };
      },
      eval(ctx: EvalContext<THarnessPayload, SweInit, SweRun>) {
        return swe.eval({ ...ctx, payload: ctx.payload.task });
      },
    };
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
