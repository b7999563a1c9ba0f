import { requestFailure } from "@raas/shared";

/** Deepest nesting of arrays/objects accepted in any input. */
const MAX_INPUT_DEPTH = 64;

/**
 * Throws `VALIDATION_FAILED` when `value` nests deeper than `maxDepth`. Iterative, so a hostile
 * input cannot overflow the stack here (it would elsewhere: JSON.stringify, structuredClone).
 */
export function assertInputDepth(value: unknown, maxDepth: number = MAX_INPUT_DEPTH): void {
  if (typeof value !== "object" || value === null) return;
  const stack: Array<{ node: object; depth: number }> = [{ node: value, depth: 1 }];
  let visited = 0;
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (depth > maxDepth) {
      throw requestFailure("VALIDATION_FAILED", `the input nests deeper than ${maxDepth} levels`);
    }
    visited += 1;
    if (visited > 1_000_000) return;
    const children = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === "object" && child !== null) stack.push({ node: child, depth: depth + 1 });
    }
  }
}
