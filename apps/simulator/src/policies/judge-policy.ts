import type { PolicyContext, PolicyTurn, SimulatorPolicy } from "./policy.types";
import type { TPolicyConfig } from "./policy-config.schema";

/**
 * Plays a judge model (labelled: a test double, it reads nothing it grades): for the task named
 * by `Task id:` in the judge prompt it answers with its scripted score — some reasoning, then the
 * last line `SCORE: <n>` — or with a scripted reply verbatim (a malformed one, say). Failed calls
 * are the simulator's faults (`setFault`, `stopListening`).
 */
export class JudgePolicy implements SimulatorPolicy {
  readonly kind = "judge";

  constructor(private readonly config: Extract<TPolicyConfig, { kind: "judge" }>) {}

  respond(context: PolicyContext): PolicyTurn {
    const grade = this.config.tasks[context.taskId] ?? this.config.default;
    const content = "reply" in grade ? grade.reply : `${grade.reasoning}\nSCORE: ${grade.score}`;
    return { type: "message", thinking: null, content, toolCalls: [] };
  }
}
