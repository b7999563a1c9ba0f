import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { apiClient } from "./api-client";
import { MEMORY_TASK_ID } from "./simulator";

const MATH_ITEMS = join(dirname(fileURLToPath(import.meta.url)), "../../packages/handlers/data/math.jsonl");

/** The first `count` shipped math items (the simulator has scripts for them). */
function mathItems(count: number): Array<Record<string, unknown>> {
  const lines = readFileSync(MATH_ITEMS, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "");
  return lines.slice(0, count).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * Runs `count` math rollouts through the API — each a real sandbox and real turns against the
 * deployment's simulator — and waits until every one is terminal; returns their ids. With
 * `passMemoryLimit`, one more whose tool call runs into the sandbox's memory limit; `agent` is
 * each job's agent settings (e.g. `{ topLogprobs: 3 }`).
 */
export async function runMathJobs(
  tag: string,
  count: number,
  options: { passMemoryLimit?: boolean; agent?: Record<string, unknown> } = {},
): Promise<string[]> {
  const api = apiClient("trainer");
  const payloads = mathItems(count).map((item) => (options.agent ? { ...item, agent: options.agent } : item));
  // Its tool call allocates past the sandbox's address-space limit (the simulator's script for it).
  if (options.passMemoryLimit)
    payloads.push({ taskId: MEMORY_TASK_ID, problem: "Allocate a big block.", answer: "1" });
  const { results } = await api.jobs.submitMany.mutate({
    jobs: payloads.map((payload, index) => ({ kind: "math", jobKey: `${tag}-math-${index}`, payload })),
  });
  const ids = results.map((result) => result.job.id);
  // `jobs.wait` holds at most 60 s; a loaded machine may need two.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    if ((await api.jobs.wait.query({ ids, timeoutMs: 60_000 })).done) return ids;
  }
  throw new Error(`math jobs did not finish in 120 s: ${ids.join(", ")}`);
}
