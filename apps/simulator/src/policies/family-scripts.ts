import type { ModelFamilyAdapter, ToolCall } from "@raas/inference";

interface ScriptStep {
  content?: string;
  thinking?: string;
  toolCalls?: ToolCall[];
  [key: string]: unknown;
}

/**
 * The scripts as `family` can write them. A step whose tool calls do not survive the family's own
 * rendering is rewritten where the format has a way, and the rewrite is listed (a test asserts
 * the list, so nothing changes silently): DeepSeek V3's template renders calls only when the
 * message has no content, so such a step loses its content. A step no rewrite can express (several
 * calls in one Llama turn) throws.
 */
export function expressScripts<T extends { steps: ScriptStep[] }>(
  family: ModelFamilyAdapter,
  tasks: Record<string, T>,
): { tasks: Record<string, T>; rewrites: string[] } {
  const rewrites: string[] = [];
  const keepsCalls = (step: ScriptStep) => {
    const calls = step.toolCalls ?? [];
    let text: string;
    try {
      text = family.renderAssistant({ content: step.content ?? "", toolCalls: calls });
    } catch {
      return false;
    }
    return JSON.stringify(family.parseResponse(text).toolCalls) === JSON.stringify(calls);
  };
  const expressed = Object.entries(tasks).map(([taskId, script]) => {
    const steps = script.steps.map((step, index) => {
      if (!step.toolCalls?.length || keepsCalls(step)) return step;
      const withoutContent = { ...step, content: "" };
      if (keepsCalls(withoutContent)) {
        rewrites.push(`${taskId} step ${index}: content dropped beside its tool call`);
        return withoutContent;
      }
      throw new Error(
        `${family.family} cannot express step ${index} of ${taskId} (${step.toolCalls.length} tool calls in one turn)`,
      );
    });
    return [taskId, { ...script, steps }] as const;
  });
  return { tasks: Object.fromEntries(expressed) as Record<string, T>, rewrites };
}
