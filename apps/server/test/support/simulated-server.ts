import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator, type TPolicyConfigInput } from "@raas/simulator";
import { configFromEnv } from "../../src/config-from-env";
import { parseServerEnv } from "../../src/env";
import { startServer } from "../../src/server";

const SCRIPTED_POLICY = fileURLToPath(
  new URL("../../../../packages/handlers/data/simulator/math-code-stem.policy.json", import.meta.url),
);

/** The simulator's scripted policy for the math, code and stem datasets: every task solved. */
export function scriptedPolicy(): TPolicyConfigInput {
  return JSON.parse(readFileSync(SCRIPTED_POLICY, "utf8")) as TPolicyConfigInput;
}

/**
 * Each math task's scripted (right) solution with `probability`, else a wrong boxed answer;
 * `taskIds` limits the tasks (default: every math task of the scripted policy).
 */
export function coinFlipMathPolicy(probability: number, taskIds?: readonly string[]): TPolicyConfigInput {
  const scripted = scriptedPolicy() as unknown as { tasks: Record<string, unknown> };
  const wrong = { steps: [{ thinking: "A guess.", content: "The answer is $\\boxed{-4242}$." }] };
  const ids = taskIds ?? Object.keys(scripted.tasks).filter((taskId) => taskId.startsWith("math-"));
  const tasks = Object.fromEntries(
    ids.map((taskId) => [taskId, { probability, success: scripted.tasks[taskId], failure: wrong }]),
  );
  return { kind: "success-probability", tasks } as TPolicyConfigInput;
}

export interface SimulatedServer {
  url: string;
  /** Closes the server and the simulator and removes the sandboxes' directory. */
  close(): Promise<void>;
}

/**
 * A simulator playing `policy` (with `seed`), and the server with it as its one vllm backend
 * (Qwen/Qwen3-8B), `trainerToken` for trainers and bubblewrap sandboxes under a fresh directory.
 */
export async function startSimulatedServer(options: {
  policy: TPolicyConfigInput;
  seed: number;
  trainerToken: string;
}): Promise<SimulatedServer> {
  const simulator = await startSimulator({ policy: options.policy, seed: options.seed });
  const sandboxDir = mkdtempSync(join(tmpdir(), `raas-${options.trainerToken}-`));
  const close = async (server?: { close(options: { graceMs: number }): Promise<void> }) => {
    await server?.close({ graceMs: 100 });
    await simulator.close();
    rmSync(sandboxDir, { recursive: true, force: true });
  };
  try {
    const fromEnv = configFromEnv(parseServerEnv({ RAAS_BACKENDS: `vllm=${simulator.url}#Qwen/Qwen3-8B` }));
    const server = await startServer({
      port: 0,
      logLevel: "silent",
      auth: { trainerToken: options.trainerToken },
      ...(fromEnv.inference ? { inference: fromEnv.inference } : {}),
      sandbox: { runtime: "bubblewrap", baseDir: sandboxDir },
    });
    return { url: server.url, close: () => close(server) };
  } catch (error) {
    await close();
    throw error;
  }
}
