import { type AgentLoopLimits, StageFailure } from "@raas/engine";
import { defineAgentHandler } from "../base/define-agent-handler";
import { asStageFailure } from "../base/infrastructure-guard";
import { submitToolSpec } from "../base/submit-tool";
import { CHECKOUT_STEP, materializeRepository, runStep, SweStepError } from "./repo-materializer";
import { evaluateSwePatch } from "./swe-evaluator";
import { repoSpecFor, SWE_DEFAULTS, type SweEvalOptions } from "./swe-options";
import { type TSwePayload, ZSwePayload } from "./swe-payload.schema";
import { SWE_SYSTEM_PROMPT, sweUserMessage } from "./swe-prompt";
import type { SweRepoSource } from "./swe-repo-source";
import { extractDiffScript, repoPath, SWE_FILES } from "./swe-shell-scripts";

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

/**
 * SWE-bench / SWE-Gym: INIT checks the repository out at `base_commit` in `/workspace/<name>` and
 * runs its setup; RUN is the agent loop with bash/python/editor; at the end of RUN the diff
 * against `base_commit` (new files included) is taken; EVAL grades it in a fresh sandbox with
 * `evaluateSwePatch`. Reward = resolved (1/0); the full report is the job's result.
 */
export function createSweHandlerFactory(config: SweHandlerConfig) {
  const setupTimeoutMs = config.setupTimeoutMs ?? SWE_DEFAULTS.setupTimeoutMs;
  return defineAgentHandler<TSwePayload, { repoDir: string }, SweArtifacts>({
    kind: "swe",
    description: "SWE-bench-style issues: edit a repository; graded by FAIL_TO_PASS / PASS_TO_PASS tests.",
    payloadSchema: ZSwePayload,
    tools: ["bash", "python", "editor"],
    submitTool: submitToolSpec("Call when the issue is resolved; ends the task. Your changes are kept."),
    limits: { maxTurns: 50, toolTimeoutMs: 120_000, ...config.limits },
    sandbox: () => ({
      ...(config.image !== undefined && { image: config.image }),
      ...(config.sandboxLimits !== undefined && { limits: config.sandboxLimits }),
    }),
    async setup({ sandbox, payload, signal }) {
      const { instance } = payload;
      // A repository that is missing, or lacks base_commit, makes the instance ungradable: `eval`.
      const bundle = await asStageFailure("eval", `no repository for ${instance.repo}`, signal, () =>
        config.repoSource.bundle(instance.repo),
      );
      try {
        await materializeRepository({
          sandbox,
          instance,
          bundle,
          spec: repoSpecFor(instance, config.repoSpecs),
          timeoutMs: setupTimeoutMs,
          signal,
        });
      } catch (error) {
        if (error instanceof SweStepError && error.step === CHECKOUT_STEP) {
          throw new StageFailure("eval", error.message, { cause: error });
        }
        throw error;
      }
      return { repoDir: repoPath(instance.repo) };
    },
    systemPrompt: () => SWE_SYSTEM_PROMPT,
    userMessage: sweUserMessage,
    async collect({ sandbox, payload, signal }) {
      const { instance } = payload;
      try {
        await runStep(sandbox, "taking the diff", extractDiffScript(instance.repo, instance.base_commit), {
          timeoutMs: setupTimeoutMs,
          signal,
        });
      } catch (error) {
        // The agent broke its repository (e.g. removed .git): its own fault, graded as no patch.
        if (error instanceof SweStepError) return { modelPatch: null, diffError: error.message };
        throw error;
      }
      const modelPatch = new TextDecoder().decode(await sandbox.readFile(SWE_FILES.modelPatch));
      return { modelPatch, diffError: null };
    },
    async evaluate({ payload, artifacts, openSandbox, signal }) {
      const report = await evaluateSwePatch({
        instance: payload.instance,
        modelPatch: artifacts.modelPatch,
        repoSource: config.repoSource,
        openSandbox,
        options: config,
        signal,
      });
      return { reward: report.resolved ? 1 : 0, result: { ...report, diffError: artifacts.diffError } };
    },
  });
}
