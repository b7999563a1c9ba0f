import type { PolicyContext, PolicyTurn, SimulatorPolicy } from "./policy.types";
import type { TPolicyConfig } from "./policy-config.schema";
import { DEFAULT_SCRIPT, renderStep, stepFor } from "./script-step";

/** Follows a per-task script of tool calls, so tests can solve or fail tasks on purpose. */
export class ScriptedPolicy implements SimulatorPolicy {
  readonly kind = "scripted";

  constructor(private readonly config: Extract<TPolicyConfig, { kind: "scripted" }>) {}

  respond(context: PolicyContext): PolicyTurn {
    const script = this.config.tasks[context.taskId] ?? this.config.default ?? DEFAULT_SCRIPT;
    return renderStep(stepFor(script, context.turnIndex), context.random);
  }
}
