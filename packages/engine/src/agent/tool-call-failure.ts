import { failureOf, isStageFailureData, policyFailure, stageFailure } from "@raas/shared";

/**
 * What a tool call that threw ends the RUN stage with (an error carrying a stage failure). Who caused it decides the kind: an error the
 * sandbox blamed on the policy (`blamePolicy`) is the policy's own outcome, `agent`, trainable with the
 * task's failure reward; a stage failure keeps its kind; anything else is infrastructure,
 * `sandbox`, never a reward. Call it only for the agent's own tool calls: a handler's step that
 * breaks the sandbox stays `sandbox` whatever the error says.
 */
export function classifyToolError(toolName: string, error: unknown): unknown {
  // Wrapped or not: a toolbox or guard may wrap the sandbox's failure in its own.
  const blamed = failureOf(error, "policy");
  if (blamed?.kind === "sandbox-error") {
    const reason = blamed.policyReason ?? blamed.message;
    return policyFailure(`policy fault in tool ${toolName}: ${reason}`, { cause: error });
  }
  if (isStageFailureData(failureOf(error))) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return stageFailure("sandbox", `tool ${toolName} failed: ${reason}`, { cause: error });
}
