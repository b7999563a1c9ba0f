import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { apiClient } from "./api-client";

const MATH_ITEMS = join(dirname(fileURLToPath(import.meta.url)), "../../packages/handlers/data/math.jsonl");

type TStepTaskInput = { taskId: string; kind: string; payload: Record<string, unknown> };

/** The first `count` shipped math items as step tasks (the simulator has a script for each). */
export function mathTasks(count: number): TStepTaskInput[] {
  return readFileSync(MATH_ITEMS, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .slice(0, count)
    .map((line) => {
      const item = JSON.parse(line) as Record<string, unknown>;
      return { taskId: String(item.taskId), kind: "math", payload: item };
    });
}

/** `count` sleep tasks that finish in ~30 ms with reward 1 at probability `successRate`. */
export function sleepTasks(prefix: string, count: number, successRate: number): TStepTaskInput[] {
  return Array.from({ length: count }, (_, index) => ({
    taskId: `${prefix}-${index}`,
    kind: "sleep",
    payload: { initMs: 5, runMs: 15, evalMs: 5, successRate },
  }));
}

/**
 * Runs one training step through the API to its end: creates it, long-polls `steps.next` until
 * the step says no group will come, then waits until every job of the step (cancelled redundant
 * ones included) is terminal, so the stored statistics no longer change. Returns the step id.
 */
export async function runStep(
  runId: string,
  request: {
    tasks: TStepTaskInput[];
    groupSize: number;
    groups: number;
    policy: "none" | "zero-variance";
    maxGroups?: number;
  },
): Promise<string> {
  const api = apiClient("trainer");
  const { step } = await api.steps.create.mutate({
    runId,
    tasks: { type: "inline", tasks: request.tasks },
    groupSize: request.groupSize,
    groups: request.groups,
    dynamicSampling: {
      policy: request.policy,
      ...(request.maxGroups !== undefined ? { maxGroups: request.maxGroups } : {}),
    },
  });
  let afterSeq = 0;
  const deadline = Date.now() + 240_000;
  for (;;) {
    const next = await api.steps.next.query({ stepId: step.id, afterSeq, limit: 64, timeoutMs: 30_000 });
    afterSeq = next.groups.at(-1)?.seq ?? afterSeq;
    if (next.done) break;
    if (Date.now() > deadline) throw new Error(`step ${step.id} did not close in 240 s`);
  }
  const jobs = await api.jobs.list.query({ batchId: step.id, limit: 500 });
  const ids = jobs.items.map((job) => job.id);
  for (let attempt = 0; attempt < 3 && ids.length > 0; attempt += 1) {
    if ((await api.jobs.wait.query({ ids, timeoutMs: 60_000 })).done) return step.id;
  }
  if (ids.length > 0) throw new Error(`jobs of step ${step.id} did not end: ${ids.join(", ")}`);
  return step.id;
}

/** Creates a run named `name` (unique per test by its tag). */
export async function createRun(name: string, model = "Qwen/Qwen3-8B (simulated)"): Promise<string> {
  const { run } = await apiClient("trainer").runs.create.mutate({ name, model, dataset: "math (shipped)" });
  return run.id;
}

/** The dashboard's number formats (apps/web/src/lib/format.ts), to compare what a page shows with the API. */
export function shownNumber(value: number | null, digits: number): string {
  return value === null ? "—" : String(Number(value.toFixed(digits)));
}

export function shownPercent(fraction: number | null): string {
  return fraction === null ? "—" : `${Number((fraction * 100).toFixed(1))} %`;
}
