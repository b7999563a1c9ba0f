import type { ToolCall } from "@raas/inference";
import type { OfferedTool } from "../engine/offered-tools";
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
  /** The tools the prompt offers; read only for a policy with `readsOfferedTools`, else empty. */
  offeredTools: readonly OfferedTool[];
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
  /** The prompt inspector reads the offered tools back from the rendered system part (once per first prompt). */
  readonly readsOfferedTools?: boolean;
  respond(context: PolicyContext): PolicyTurn;
}
