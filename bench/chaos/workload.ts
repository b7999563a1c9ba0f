// The chaos bench's workload: a fixed, seeded sequence of real jobs — `math` and `code` jobs in
// bubblewrap sandboxes driven by the simulator's scripted policy (each with a known reward), and
// `sleep` jobs that take no sandbox — the same sequence in the fault-free and the chaos phase.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { seededRandom } from "@raas/shared";

const DATA = fileURLToPath(new URL("../../packages/handlers/data/", import.meta.url));

/** Shares of the mix; the rest is `sleep`. */
const MATH_SHARE = 0.4;
const CODE_SHARE = 0.3;
/** Sleep jobs wait on timers (no CPU, no sandbox): they keep the queues busy beside real work. */
const SLEEP_PAYLOAD = { initMs: 300, runMs: 1_500, evalMs: 300, jitter: 0.3 };

export interface WorkItem {
  kind: "math" | "code" | "sleep";
  taskId: string | null;
  payload: Record<string, unknown>;
}

function tasks(file: string): Array<Record<string, unknown> & { taskId: string }> {
  return readFileSync(join(DATA, file), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown> & { taskId: string });
}

/** `count` work items drawn with `seed`: the same arguments give the same sequence. */
export function buildWorkload(count: number, seed: number): WorkItem[] {
  const random = seededRandom(seed);
  const math = tasks("math.jsonl");
  const code = tasks("code.jsonl");
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  return Array.from({ length: count }, (): WorkItem => {
    const draw = random();
    if (draw < MATH_SHARE) {
      const task = pick(math);
      return { kind: "math", taskId: task.taskId, payload: task };
    }
    if (draw < MATH_SHARE + CODE_SHARE) {
      const task = pick(code);
      return { kind: "code", taskId: task.taskId, payload: task };
    }
    return { kind: "sleep", taskId: null, payload: { ...SLEEP_PAYLOAD } };
  });
}

/** The reward the simulator's scripted policy earns on each task (its answers are fixed). */
export function expectedRewards(): Map<string, number> {
  const file = join(DATA, "simulator", "expected-rewards.json");
  return new Map(Object.entries(JSON.parse(readFileSync(file, "utf8")) as Record<string, number>));
}

/** The simulator's scripted policy for every math, code and stem task. */
export function scriptedPolicy(): unknown {
  return JSON.parse(readFileSync(join(DATA, "simulator", "math-code-stem.policy.json"), "utf8"));
}
