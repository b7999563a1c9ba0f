// The Python client's GRPO example on real agent rollouts: the server's shipped `math` dataset in
// real bubblewrap sandboxes, the simulator (the labelled test double for the model) sampling each
// trajectory's outcome with probability 0.5 from its own seed, so groups differ. Checks what a
// trainer reads: sampled tokens, and turns stamped with the weight version of their step.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type RunningSimulator, startSimulator, type TPolicyConfigInput } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config-from-env";
import { parseServerEnv } from "../src/env";
import { type RunningServer, startServer } from "../src/server";
import { requirePython, runPython } from "./support/python-process";

const DATA = fileURLToPath(new URL("../../../packages/handlers/data/simulator/", import.meta.url));
const EXAMPLE = fileURLToPath(new URL("../../../clients/python/examples/grpo_loop.py", import.meta.url));
const TRAINER = "python-client-math";

/** Success: the task's scripted (correct) solution; failure: a wrong boxed answer. */
function coinFlipPolicy(): TPolicyConfigInput {
  const scripted = JSON.parse(readFileSync(join(DATA, "math-code-stem.policy.json"), "utf8")) as {
    tasks: Record<string, { steps: unknown[] }>;
  };
  const tasks: Record<string, unknown> = {};
  for (const [taskId, script] of Object.entries(scripted.tasks)) {
    if (!taskId.startsWith("math-")) continue;
    tasks[taskId] = {
      probability: 0.5,
      success: script,
      failure: { steps: [{ thinking: "A guess.", content: "The answer is $\\boxed{-4242}$." }] },
    };
  }
  return { kind: "success-probability", tasks } as TPolicyConfigInput;
}

describe("the Python GRPO example on the math dataset with the simulator", () => {
  let server: RunningServer;
  let simulator: RunningSimulator;
  let sandboxDir: string;

  beforeAll(async () => {
    requirePython();
    simulator = await startSimulator({ policy: coinFlipPolicy(), seed: 5 });
    sandboxDir = mkdtempSync(join(tmpdir(), "raas-python-client-math-"));
    const fromEnv = configFromEnv(parseServerEnv({ RAAS_BACKENDS: `vllm=${simulator.url}#Qwen/Qwen3-8B` }));
    server = await startServer({
      port: 0,
      logLevel: "silent",
      auth: { trainerToken: TRAINER },
      ...(fromEnv.inference ? { inference: fromEnv.inference } : {}),
      sandbox: { runtime: "bubblewrap", baseDir: sandboxDir },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.close({ graceMs: 100 });
    await simulator?.close();
    if (sandboxDir) rmSync(sandboxDir, { recursive: true, force: true });
  });

  it("hands out informative groups with sampled tokens, no turn newer than its step's weights, none more than one version older", async () => {
    const policy = await fetch(`${server.url}/api/v1/policy`);
    const base = ((await policy.json()) as { weightVersion: number | null }).weightVersion ?? 0;
    const run = await runPython(
      [EXAMPLE, "--dataset", "math", "--steps", "2", "--groups", "2", "--group-size", "2"],
      { RAAS_URL: server.url, RAAS_TOKEN: TRAINER },
    );
    expect(run.status, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout.trim().split("\n").at(-1) as string) as {
      steps: {
        status: string;
        groups: number;
        meanReward: number;
        sampledTokens: number;
        turnWeightVersions: string[];
      }[];
    };
    expect(summary.steps).toHaveLength(2);
    summary.steps.forEach((step, k) => {
      expect(step).toMatchObject({ status: "completed", groups: 2, meanReward: 0.5 });
      expect(step.sampledTokens).toBeGreaterThan(0);
      // Step k ran before the example announced version base + k + 1, so no turn is newer than
      // base + k. A step may be served wholly by groups carried over from the step before (an
      // informative group decided there goes on running and is handed out here), so its turns are
      // at most one version older.
      const versions = step.turnWeightVersions.map(Number);
      expect(versions.length).toBeGreaterThan(0);
      expect(Math.max(...versions)).toBeLessThanOrEqual(base + k);
      expect(Math.min(...versions)).toBeGreaterThanOrEqual(base + Math.max(0, k - 1));
    });
  }, 300_000);
});
