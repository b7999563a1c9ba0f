import type { ChatToolCall } from "../ports/chat-format.port";

/** Canonical text of an action: tool name + arguments with sorted keys. */
export function actionKey(calls: readonly ChatToolCall[]): string {
  return JSON.stringify(calls.map((call) => [call.name, sortKeys(call.arguments)]));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value as Record<string, unknown>)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

/**
 * Counts identical consecutive actions (a turn's tool calls, or its text when it has none).
 * `observe` returns true when the same action has now been seen `limit` times in a row.
 */
export class ActionRepeatDetector {
  #lastKey: string | null = null;
  #count = 0;

  constructor(private readonly limit: number) {}

  observe(key: string): boolean {
    if (key === this.#lastKey) this.#count += 1;
    else {
      this.#lastKey = key;
      this.#count = 1;
    }
    return this.limit > 0 && this.#count >= this.limit;
  }

  get repeats(): number {
    return this.#count;
  }
}
