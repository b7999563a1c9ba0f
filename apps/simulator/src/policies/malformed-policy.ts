import { assertNever } from "@raas/shared";
import type { PolicyContext, PolicyTurn, SimulatorPolicy } from "./policy.types";
import type { TMalformedMode, TPolicyConfig } from "./policy-config.schema";

/** The response a malformed mode produces; shared with the `[simulate:<mode>]` prompt marker. */
export function malformedTurn(mode: TMalformedMode): PolicyTurn {
  switch (mode) {
    case "invalid-json":
      return {
        type: "raw",
        text: '<tool_call>\n{"name": "bash", "arguments": {"command": "ls"\n</tool_call>',
      };
    case "unclosed-tag":
      return { type: "raw", text: '<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}' };
    case "unknown-tool":
      return { type: "raw", text: '<tool_call>\n{"name": "launch_rockets", "arguments": {}}\n</tool_call>' };
    case "missing-name":
      return { type: "raw", text: '<tool_call>\n{"arguments": {"command": "ls"}}\n</tool_call>' };
    case "overlong":
      return { type: "overlong" };
    default:
      return assertNever(mode, "malformed mode");
  }
}

/** Produces malformed tool calls or overlong output, per task or by the configured default mode. */
export class MalformedPolicy implements SimulatorPolicy {
  readonly kind = "malformed";

  constructor(private readonly config: Extract<TPolicyConfig, { kind: "malformed" }>) {}

  respond(context: PolicyContext): PolicyTurn {
    return malformedTurn(this.config.tasks[context.taskId] ?? this.config.mode);
  }
}
