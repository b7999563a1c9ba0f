import { policyFaultOf } from "../policy-fault";
import { isStageFailure, StageFailure } from "../stage-failure";

/**
 * Why a tool call that threw ends the RUN stage. Who caused it decides the kind: an error the
 * sandbox marked as caused by the policy (see `PolicyFaultMarks`) is the policy's own outcome,
 * `agent`, trainable with the task's failure reward; a `StageFailure` keeps its kind; anything
 * else is infrastructure, `sandbox`, never a reward. Call it only for the agent's own tool calls:
 * a handler's step that breaks the sandbox stays `sandbox` whatever the error says.
 */
export function classifyToolError(toolName: string, error: unknown): StageFailure {
  const fault = policyFaultOf(error);
  if (fault !== null) {
    return new StageFailure("agent", `policy fault in tool ${toolName}: ${fault.reason}`, { cause: error });
  }
  if (isStageFailure(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new StageFailure("sandbox", `tool ${toolName} failed: ${reason}`, { cause: error });
}
