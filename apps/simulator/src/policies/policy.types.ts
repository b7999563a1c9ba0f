import type { ToolCall } from "@raas/inference";
import type { TMalformedCallMode } from "./malformed-calls";

/** What a policy knows about the request it answers. */
export interface PolicyContext {
  /** From `task_id: …` in the first user message, else a hash of that message. */
  taskId: string;
  /** 0 for the first assistant turn of the conversation. */
  turnIndex: number;
  /** Random stream fixed by simulator seed, request seed (or unseeded draw), task and turn. */
  random: () => number;
  /** Random stream fixed by simulator seed, request seed (or unseeded draw) and task: the same on every turn. */
  trajectoryRandom: () => number;
  maxTokens: number;
}

/** A response before tokenization. */
export type PolicyTurn =
  | { type: "message"; thinking: string | null; content: string; toolCalls: ToolCall[] }
  | { type: "raw"; text: string }
  /** A broken tool call, written in the served family's format. */
  | { type: "malformed"; mode: TMalformedCallMode }
  /** Text that never ends: generation stops at max tokens. */
  | { type: "overlong" };

export interface SimulatorPolicy {
  readonly kind: string;
  respond(context: PolicyContext): PolicyTurn;
}
