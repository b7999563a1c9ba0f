import type { PolicyContext, PolicyTurn, SimulatorPolicy } from "./policy.types";
import type { TMalformedMode, TPolicyConfig } from "./policy-config.schema";

/**
 * The response a malformed mode produces; shared with the `[simulate:<mode>]` prompt marker. The
 * simulated model writes a malformed call in its family's format (`writeMalformedCalls`).
 */
export function malformedTurn(mode: TMalformedMode): PolicyTurn {
  return mode === "overlong" ? { type: "overlong" } : { type: "malformed", mode };
}

/** Produces malformed tool calls or overlong output, per task or by the configured default mode. */
export class MalformedPolicy implements SimulatorPolicy {
  readonly kind = "malformed";

  constructor(private readonly config: Extract<TPolicyConfig, { kind: "malformed" }>) {}

  respond(context: PolicyContext): PolicyTurn {
    return malformedTurn(this.config.tasks[context.taskId] ?? this.config.mode);
  }
}
