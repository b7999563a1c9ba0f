import type { PolicyContext, PolicyTurn, SimulatorPolicy } from "./policy.types";
import type { TOutcomeScripts, TPolicyConfig, TTaskScript } from "./policy-config.schema";
import { renderStep, stepFor } from "./script-step";

const submit = (answer: string): TTaskScript => ({
  steps: [
    { thinkingWords: [10, 30], toolCalls: [{ name: "bash", arguments: { command: "cat README.md" } }] },
    { thinkingWords: [10, 30], toolCalls: [{ name: "submit", arguments: { answer } }] },
  ],
  repeatLast: false,
});

const DEFAULT_SUCCESS = submit("correct");
const DEFAULT_FAILURE = submit("wrong");

/**
 * Each trajectory succeeds with its task's probability: the draw uses the trajectory's random
 * stream (simulator seed + request seed, or its fresh draw without one, + task), so every turn of
 * one trajectory agrees.
 */
export class SuccessProbabilityPolicy implements SimulatorPolicy {
  readonly kind = "success-probability";

  constructor(private readonly config: Extract<TPolicyConfig, { kind: "success-probability" }>) {}

  respond(context: PolicyContext): PolicyTurn {
    const task: TOutcomeScripts = this.config.tasks[context.taskId] ?? this.config.default;
    const isSuccess = context.trajectoryRandom() < task.probability;
    const script = isSuccess ? (task.success ?? DEFAULT_SUCCESS) : (task.failure ?? DEFAULT_FAILURE);
    return renderStep(stepFor(script, context.turnIndex), context.random);
  }
}
