import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type RunningSimulator, startSimulator, type TPolicyConfigInput } from "@raas/simulator";

const DATA = fileURLToPath(new URL("../../../../../packages/handlers/data/", import.meta.url));

/** The model the scripted math policy answers as. */
export const MATH_MODEL = "Qwen/Qwen3-8B";

/** The shipped math tasks (`packages/handlers/data/math.jsonl`) in file order; only `ids` when given. */
export function mathTasks(ids?: readonly string[]): Array<{ taskId: string }> {
  return readFileSync(join(DATA, "math.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as { taskId: string })
    .filter((task) => ids === undefined || ids.includes(task.taskId));
}

/**
 * The simulator (the labelled test double for a GPU model) with the shipped scripted policy for
 * math, code and STEM tasks; `overheadMs` is added to every request (makes RUN last).
 */
export function startMathSimulator(options: {
  seed: number;
  overheadMs?: number;
}): Promise<RunningSimulator> {
  const policy = JSON.parse(readFileSync(join(DATA, "simulator/math-code-stem.policy.json"), "utf8"));
  return startSimulator({
    policy: policy as TPolicyConfigInput,
    seed: options.seed,
    ...(options.overheadMs !== undefined && { latency: { overheadMs: options.overheadMs } }),
  });
}

/** `RAAS_BACKENDS` naming `simulator` as the one vLLM backend of the math model. */
export function mathBackendEnv(simulator: RunningSimulator): { RAAS_BACKENDS: string } {
  return { RAAS_BACKENDS: `vllm=${simulator.url}#${MATH_MODEL}` };
}
