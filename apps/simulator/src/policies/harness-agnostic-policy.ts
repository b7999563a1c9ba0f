import type { ToolCall } from "@raas/inference";
import type { OfferedTool } from "../engine/offered-tools";
import { findShellTool, findWriteTool, heredocWrite, shellCall, writeCall } from "./harness-tools";
import type { PolicyContext, PolicyTurn, SimulatorPolicy } from "./policy.types";
import type { THarnessStep, TPolicyConfig } from "./policy-config.schema";
import { renderStep } from "./script-step";

type HarnessAgnosticConfig = Extract<TPolicyConfig, { kind: "harness-agnostic" }>;

const FINAL_ANSWER = "I have finished the task.";

function toolNames(tools: readonly OfferedTool[]): string {
  return tools.length === 0 ? "none" : tools.map((tool) => tool.name).join(", ");
}

/**
 * The call a step makes with the offered tools, or the sentence saying why it cannot: a harness
 * that offers no shell tool gets a plain answer naming the tools it did offer, so a test through
 * a real CLI fails loudly on it instead of wandering.
 */
function callFor(step: THarnessStep, tools: readonly OfferedTool[]): ToolCall | string {
  const shell = findShellTool(tools);
  if (step.writeFile !== undefined) {
    const write = findWriteTool(tools);
    if (write) return writeCall(write, step.writeFile.path, step.writeFile.content);
    if (shell) return shellCall(shell, heredocWrite(step.writeFile.path, step.writeFile.content));
    return `The simulator found neither a file-writing nor a shell tool among the offered tools (${toolNames(tools)}).`;
  }
  if (shell) return shellCall(shell, step.shell as string);
  return `The simulator found no shell tool among the offered tools (${toolNames(tools)}).`;
}

/**
 * Plays a task's script of abstract actions (`shell`, `writeFile`, `finish`) through whatever tools
 * the harness offers, so real agent CLIs (Qwen Code's `run_shell_command`, Claude Code's `Bash`,
 * Codex's argv `shell`, opencode's `bash`) can solve or fail a task on purpose. The tools come from
 * the request's rendered prompt (`offered-tools.ts`); the call's argument names and shapes come
 * from each tool's schema (`harness-tools.ts`).
 */
export class HarnessAgnosticPolicy implements SimulatorPolicy {
  readonly kind = "harness-agnostic";
  readonly readsOfferedTools = true;

  constructor(private readonly config: HarnessAgnosticConfig) {}

  respond(context: PolicyContext): PolicyTurn {
    const script = this.config.tasks[context.taskId];
    if (!script) {
      return renderStep(
        { content: `The simulator has no harness script for task ${context.taskId}.` },
        context.random,
      );
    }
    const step = script.steps[context.turnIndex] ?? { finish: FINAL_ANSWER };
    const thought = { thinking: step.thinking, thinkingWords: step.thinkingWords };
    if (step.finish !== undefined) return renderStep({ ...thought, content: step.finish }, context.random);
    const call = callFor(step, context.offeredTools);
    return renderStep(
      typeof call === "string" ? { ...thought, content: call } : { ...thought, toolCalls: [call] },
      context.random,
    );
  }
}
