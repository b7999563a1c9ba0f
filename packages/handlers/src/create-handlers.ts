import { type AnyTaskHandler, defineHandler } from "@raas/engine";
import type { AgentDefaults, AgentHandlerDeps } from "./base/agent-handler.types";
import { type CodeHandlerConfig, createCodeHandlerFactory } from "./code/code-handler";
import { createHarborHandler } from "./harbor/harbor-handler";
import { createJudgeHandlerFactory } from "./judge/judge-handler";
import type { JudgeModel } from "./judge/judge-model.types";
import { createMathHandler } from "./math/math-handler";
import { createRewardFnHandler } from "./reward-fn/reward-fn-handler";
import { createStemHandler } from "./stem/stem-handler";

/** Configuration of the built-in handlers, passed in by the composition root (never read from env). */
export interface HandlersConfig {
  /** Loop limits, sampling and sandbox limits every agent handler starts from. */
  agent?: AgentDefaults;
  code?: CodeHandlerConfig;
}

export interface CreateHandlersOptions extends Omit<AgentHandlerDeps, "defaults"> {
  config?: HandlersConfig;
  /**
   * The judge model of `judge` jobs, on the backends the deployment names for judging (never the
   * policy's). Default none: `judge` jobs fail as `eval` (infrastructure) saying so.
   */
  judge?: JudgeModel;
}

/**
 * The built-in agent handlers (`math`, `code`, `stem`, `harbor`, `reward-fn`, `judge`) bound to their dependencies, erased with
 * `defineHandler` so they share one list. Register each with the engine's `HandlerRegistry`.
 */
export function createHandlers(options: CreateHandlersOptions): AnyTaskHandler[] {
  const deps: AgentHandlerDeps = {
    sandboxRuntime: options.sandboxRuntime,
    inference: options.inference,
    chatFormat: options.chatFormat,
    ...(options.toolServers ? { toolServers: options.toolServers } : {}),
    ...(options.config?.agent ? { defaults: options.config.agent } : {}),
  };
  return [
    defineHandler(createMathHandler(deps)),
    defineHandler(createCodeHandlerFactory(options.config?.code)(deps)),
    defineHandler(createStemHandler(deps)),
    defineHandler(createHarborHandler(deps)),
    defineHandler(createRewardFnHandler(deps)),
    defineHandler(createJudgeHandlerFactory(options.judge ?? null)(deps)),
  ];
}
