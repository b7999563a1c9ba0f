import type { CollectContext, EvaluateContext, SetupContext } from "../base/agent-handler.types";
import { tamperedFailure } from "../base/canary/index";
import { defineAgentHandler } from "../base/define-agent-handler";
import { asStageFailure } from "../base/infrastructure-guard";
import { submitToolSpec } from "../base/submit-tool";
import { initStepFailure, materializeRepository, runStep, SweStepError } from "./repo-materializer";
import { evaluateSwePatch } from "./swe-evaluator";
import type { SweArtifacts } from "./swe-handler";
import type { SweHandlerContext } from "./swe-handler-context";
import { type TSwePayload, ZSwePayload } from "./swe-payload.schema";
import { SWE_SYSTEM_PROMPT, sweUserMessage } from "./swe-prompt";
import { extractDiffScript, repoPath } from "./swe-shell-scripts";

type SweSetup = { repoDir: string };

/** The rollout side of `swe`: INIT checks the repository out, RUN is the agent loop, EVAL grades its diff. */
export function defineSweAgentHandler(context: SweHandlerContext) {
  const { config } = context;
  return defineAgentHandler<TSwePayload, SweSetup, SweArtifacts>({
    kind: "swe",
    description: "SWE-bench-style issues: edit a repository; graded by FAIL_TO_PASS / PASS_TO_PASS tests.",
    payloadSchema: ZSwePayload,
    tools: ["bash", "python", "editor"],
    submitTool: submitToolSpec("Call when the issue is resolved; ends the task. Your changes are kept."),
    limits: { maxTurns: 50, toolTimeoutMs: 120_000, ...config.limits },
    sandbox: (payload, defaults) => {
      const image = context.imageOf(payload, defaults);
      const env = context.specOf(payload).env;
      return {
        ...(image !== undefined && { image }),
        ...(env !== undefined && { env }),
        ...(config.sandboxLimits !== undefined && { limits: config.sandboxLimits }),
      };
    },
    // The checkout depends on the instance only: a group's members share one INIT (a fork each).
    shareSetupInGroup: true,
    setup: (ctx) => setupSweRepository(context, ctx),
    systemPrompt: () => SWE_SYSTEM_PROMPT,
    userMessage: sweUserMessage,
    harnessCwd: (_payload, setup) => setup.repoDir,
    collect: (ctx) => collectSweDiff(context, ctx),
    evaluate: (ctx) => evaluateSweRollout(context, ctx),
  });
}

async function setupSweRepository(
  context: SweHandlerContext,
  { sandbox, payload, signal }: SetupContext<TSwePayload>,
): Promise<SweSetup> {
  const { instance } = payload;
  // A repository that is missing, or lacks base_commit, makes the instance ungradable: `eval`.
  const bundle = await asStageFailure("eval", `no repository for ${instance.repo}`, signal, () =>
    context.config.repoSource.bundle(instance.repo, instance.base_commit),
  );
  try {
    await materializeRepository({
      sandbox,
      instance,
      bundle,
      spec: context.specOf(payload),
      timeoutMs: context.setupTimeoutMs,
      signal,
    });
  } catch (error) {
    // Nothing of the policy ran yet: a step that exits non-zero on the clean repository makes
    // the instance ungradable (`eval`); one that times out is `timeout`, one killed `sandbox`.
    if (error instanceof SweStepError) throw initStepFailure(error);
    throw error;
  }
  return { repoDir: repoPath(instance.repo) };
}

async function collectSweDiff(
  context: SweHandlerContext,
  { sandbox, payload, signal }: CollectContext<TSwePayload, SweSetup>,
): Promise<SweArtifacts> {
  const { instance } = payload;
  let diff: Awaited<ReturnType<typeof runStep>>;
  try {
    // The diff comes back as the command's own stdout: no file a leftover process could swap.
    diff = await runStep(sandbox, "taking the diff", extractDiffScript(instance.repo, instance.base_commit), {
      timeoutMs: context.setupTimeoutMs,
      signal,
    });
  } catch (error) {
    // The agent broke its repository (e.g. removed .git): its own fault, graded as no patch.
    if (error instanceof SweStepError) return { modelPatch: null, diffError: error.message };
    throw error;
  }
  if (diff.truncated) {
    return { modelPatch: null, diffError: "the diff against base_commit is larger than 16 MiB" };
  }
  return { modelPatch: diff.stdout, diffError: null };
}

async function evaluateSweRollout(
  context: SweHandlerContext,
  { payload, artifacts, openSandbox, defaults, signal }: EvaluateContext<TSwePayload, SweSetup, SweArtifacts>,
) {
  const report = await evaluateSwePatch({
    instance: payload.instance,
    modelPatch: artifacts.modelPatch,
    repoSource: context.config.repoSource,
    openSandbox,
    options: context.evalOptionsOf(defaults),
    ...(payload.spec !== undefined && { spec: payload.spec }),
    goodReferences: context.goodReferences,
    signal,
  });
  const result = { ...report, diffError: artifacts.diffError };
  if (report.tampered) throw tamperedFailure(report.canaries?.lies ?? [], result);
  return { reward: report.resolved ? 1 : 0, result };
}
