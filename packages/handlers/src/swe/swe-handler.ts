import type { AgentLoopLimits, EvalContext, RunContext, TaskHandler } from "@raas/engine";
import type { AgentHandlerDeps, AgentInitOutput, AgentRunOutput } from "../base/agent-handler.types";
import { ZAgentRunSummary, ZTokenDriftSummary } from "../base/agent-result.schema";
import { tamperedFailure } from "../base/canary/index";
import { defineAgentHandler } from "../base/define-agent-handler";
import { asStageFailure, guardSandbox } from "../base/infrastructure-guard";
import { submitToolSpec } from "../base/submit-tool";
import { initStepFailure, materializeRepository, runStep, SweStepError } from "./repo-materializer";
import { evaluateSwePatch } from "./swe-evaluator";
import { selectSweImage } from "./swe-image";
import { SWE_DEFAULTS, type SweEvalOptions } from "./swe-options";
import { type TSwePayload, ZSwePayload, ZSweResult } from "./swe-payload.schema";
import { SWE_SYSTEM_PROMPT, sweUserMessage } from "./swe-prompt";
import type { SweRepoSource } from "./swe-repo-source";
import { resolveSweSpec } from "./swe-repo-spec";
import { extractDiffScript, repoPath } from "./swe-shell-scripts";

/** Configuration of the `swe` handler (from the composition root). */
export interface SweHandlerConfig extends SweEvalOptions {
  /** Where repositories come from (see `createBundleDirRepoSource`). */
  repoSource: SweRepoSource;
  /** Loop limits of SWE rollouts (under the job's overrides). Default 50 turns and 120_000 ms per tool call. */
  limits?: AgentLoopLimits;
}

/** What RUN hands to EVAL: the model's diff, or null (with the reason) when none could be taken. */
export interface SweArtifacts {
  modelPatch: string | null;
  diffError: string | null;
}

type AgentInit = AgentInitOutput<{ repoDir: string }>;
type AgentRun = AgentRunOutput<SweArtifacts>;
/** INIT/RUN output of a job that grades a given patch: nothing happens before EVAL. */
const GRADE_ONLY = { gradeOnly: true } as const;
type GradeOnly = typeof GRADE_ONLY;

/** A job that grades `payload.modelPatch` (a prediction) instead of running a rollout. */
function isGradeOnly(payload: TSwePayload): boolean {
  return payload.modelPatch !== undefined;
}

/**
 * SWE-bench / SWE-Gym: INIT checks the repository out at `base_commit` in `/workspace/<name>`
 * (history up to it only) and runs the spec's setup; RUN is the agent loop with
 * bash/python/editor; at the end of RUN the diff against `base_commit` (new files included) is
 * taken; EVAL grades it in a fresh sandbox with `evaluateSwePatch`. A payload with `modelPatch`
 * skips INIT and RUN and grades that patch. Reward = resolved (1/0); the report is the result.
 */
export function createSweHandlerFactory(config: SweHandlerConfig) {
  const setupTimeoutMs = config.setupTimeoutMs ?? SWE_DEFAULTS.setupTimeoutMs;
  // Instances whose gold patch is known to run their listed tests (see `judgeListedTests`).
  const goodReferences = new Set<string>();
  const specOf = (payload: TSwePayload) => resolveSweSpec(payload.instance, config.repoSpecs, payload.spec);
  const imageOf = (payload: TSwePayload) => selectSweImage(payload.instance, specOf(payload), config);
  const agentFactory = defineAgentHandler<TSwePayload, { repoDir: string }, SweArtifacts>({
    kind: "swe",
    description: "SWE-bench-style issues: edit a repository; graded by FAIL_TO_PASS / PASS_TO_PASS tests.",
    payloadSchema: ZSwePayload,
    tools: ["bash", "python", "editor"],
    submitTool: submitToolSpec("Call when the issue is resolved; ends the task. Your changes are kept."),
    limits: { maxTurns: 50, toolTimeoutMs: 120_000, ...config.limits },
    sandbox: (payload) => {
      const image = imageOf(payload);
      const env = specOf(payload).env;
      return {
        ...(image !== undefined && { image }),
        ...(env !== undefined && { env }),
        ...(config.sandboxLimits !== undefined && { limits: config.sandboxLimits }),
      };
    },
    // The checkout depends on the instance only: a group's members share one INIT (a fork each).
    shareSetupInGroup: true,
    async setup({ sandbox, payload, signal }) {
      const { instance } = payload;
      // A repository that is missing, or lacks base_commit, makes the instance ungradable: `eval`.
      const bundle = await asStageFailure("eval", `no repository for ${instance.repo}`, signal, () =>
        config.repoSource.bundle(instance.repo, instance.base_commit),
      );
      try {
        await materializeRepository({
          sandbox,
          instance,
          bundle,
          spec: specOf(payload),
          timeoutMs: setupTimeoutMs,
          signal,
        });
      } catch (error) {
        // Nothing of the policy ran yet: a step that exits non-zero on the clean repository makes
        // the instance ungradable (`eval`); one that times out is `timeout`, one killed `sandbox`.
        if (error instanceof SweStepError) throw initStepFailure(error);
        throw error;
      }
      return { repoDir: repoPath(instance.repo) };
    },
    systemPrompt: () => SWE_SYSTEM_PROMPT,
    userMessage: sweUserMessage,
    async collect({ sandbox, payload, signal }) {
      const { instance } = payload;
      let diff: Awaited<ReturnType<typeof runStep>>;
      try {
        // The diff comes back as the command's own stdout: no file a leftover process could swap.
        diff = await runStep(
          sandbox,
          "taking the diff",
          extractDiffScript(instance.repo, instance.base_commit),
          {
            timeoutMs: setupTimeoutMs,
            signal,
          },
        );
      } catch (error) {
        // The agent broke its repository (e.g. removed .git): its own fault, graded as no patch.
        if (error instanceof SweStepError) return { modelPatch: null, diffError: error.message };
        throw error;
      }
      if (diff.truncated) {
        return { modelPatch: null, diffError: "the diff against base_commit is larger than 16 MiB" };
      }
      return { modelPatch: diff.stdout, diffError: null };
    },
    async evaluate({ payload, artifacts, openSandbox, signal }) {
      const report = await evaluateSwePatch({
        instance: payload.instance,
        modelPatch: artifacts.modelPatch,
        repoSource: config.repoSource,
        openSandbox,
        options: config,
        ...(payload.spec !== undefined && { spec: payload.spec }),
        goodReferences,
        signal,
      });
      const result = { ...report, diffError: artifacts.diffError };
      if (report.tampered) throw tamperedFailure(report.canaries?.lies ?? [], result);
      return { reward: report.resolved ? 1 : 0, result };
    },
  });

  return (deps: AgentHandlerDeps): TaskHandler<TSwePayload, AgentInit | GradeOnly, AgentRun | GradeOnly> => {
    const agent = agentFactory(deps);
    return {
      kind: agent.kind,
      ...(agent.description !== undefined && { description: agent.description }),
      payloadSchema: agent.payloadSchema,
      // A rollout's result has `agent` and `tokenDrift`; grading a given modelPatch runs no agent.
      resultSchema: ZSweResult.extend({
        agent: ZAgentRunSummary.optional().describe(
          "The agent loop's summary; absent when a modelPatch was graded.",
        ),
        tokenDrift: ZTokenDriftSummary.optional().describe(
          "The token-in/token-out check; absent when a modelPatch was graded.",
        ),
      }),
      async init(ctx) {
        // An instance without its prepared environment image cannot be run or graded: `eval`.
        await asStageFailure("eval", "no environment image", ctx.signal, async () => imageOf(ctx.payload));
        return isGradeOnly(ctx.payload) ? GRADE_ONLY : agent.init(ctx);
      },
      async run(ctx) {
        if (isGradeOnly(ctx.payload)) return GRADE_ONLY;
        return agent.run(ctx as RunContext<TSwePayload, AgentInit>);
      },
      async eval(ctx) {
        if (!isGradeOnly(ctx.payload))
          return agent.eval(ctx as EvalContext<TSwePayload, AgentInit, AgentRun>);
        const report = await evaluateSwePatch({
          instance: ctx.payload.instance,
          modelPatch: ctx.payload.modelPatch ?? null,
          repoSource: config.repoSource,
          openSandbox: async (spec) => {
            const limits = { ...deps.defaults?.sandboxLimits, ...spec.limits };
            const sandbox = await asStageFailure("sandbox", "starting the sandbox failed", ctx.signal, () =>
              deps.sandboxRuntime.create({ ...spec, jobId: ctx.job.id, limits }, ctx.signal),
            );
            ctx.defer(() => sandbox.close());
            return guardSandbox(sandbox, ctx.signal);
          },
          options: config,
          ...(ctx.payload.spec !== undefined && { spec: ctx.payload.spec }),
          goodReferences,
          signal: ctx.signal,
        });
        if (report.tampered) throw tamperedFailure(report.canaries?.lies ?? [], report);
        return { reward: report.resolved ? 1 : 0, result: report };
      },
    };
  };
}
