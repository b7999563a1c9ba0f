import type { ModelFamilyAdapter } from "@raas/inference";
import { MALFORMED_MODES, type TMalformedMode } from "../policies/policy-config.schema";
import { hashSeed } from "./seeded-random";

export interface PromptFacts {
  taskId: string;
  /** Assistant turns already in the prompt (the open generation header not counted). */
  turnIndex: number;
  /** `[simulate:<mode>]` in the first user message, if any. */
  simulateMode: TMalformedMode | null;
}

const TASK_ID = /\btask[_ -]?id\s*[:=]\s*([\w.\-/]+)/i;
const SIMULATE = /\[simulate:([a-z-]+)\]/;

/**
 * Reads what the scripted policies need from prompt ids without decoding the whole prompt: the
 * first user message (task id, simulate marker) and the number of assistant headers.
 */
export function createPromptInspector(
  family: ModelFamilyAdapter,
): (promptIds: readonly number[]) => PromptFacts {
  const [imStart, userId] = family.tokenizer.encode("<|im_start|>user") as [number, number];
  const assistantId = family.tokenizer.encode("<|im_start|>assistant")[1] as number;
  const imEnd = family.endOfTurnId;
  return (promptIds) => {
    let assistantHeaders = 0;
    let userStart = -1;
    for (let i = 0; i + 1 < promptIds.length; i += 1) {
      if (promptIds[i] !== imStart) continue;
      const role = promptIds[i + 1];
      if (role === assistantId) assistantHeaders += 1;
      else if (role === userId && userStart === -1) userStart = i + 2;
    }
    let userText = "";
    if (userStart !== -1) {
      let end = userStart;
      while (end < promptIds.length && promptIds[end] !== imEnd) end += 1;
      userText = family.tokenizer.decode(promptIds.slice(userStart, end));
    }
    const marker = SIMULATE.exec(userText)?.[1];
    return {
      taskId: TASK_ID.exec(userText)?.[1] ?? `task-${hashSeed(userText).toString(16)}`,
      turnIndex: Math.max(0, assistantHeaders - 1),
      simulateMode: (MALFORMED_MODES as readonly string[]).includes(marker ?? "")
        ? (marker as TMalformedMode)
        : null,
    };
  };
}
