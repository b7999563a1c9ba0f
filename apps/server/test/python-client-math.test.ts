// The Python client's GRPO example on real agent rollouts: the server's shipped `math` dataset in
// real bubblewrap sandboxes, the simulator (the labelled test double for the model) sampling each
// trajectory's outcome with probability 0.5 from its own seed, so groups differ. Checks what a
// trainer reads: sampled tokens, and turns stamped with the weight version of their step.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requirePython, runPython } from "./support/python-process";
import { coinFlipMathPolicy, type SimulatedServer, startSimulatedServer } from "./support/simulated-server";

const EXAMPLE = fileURLToPath(new URL("../../../clients/python/examples/grpo_loop.py", import.meta.url));
const TRAINER = "python-client-math";

describe("the Python GRPO example on the math dataset with the simulator", () => {
  let server: SimulatedServer;

  beforeAll(async () => {
    requirePython();
    // Success: the task's scripted (correct) solution; failure: a wrong boxed answer.
    server = await startSimulatedServer({ policy: coinFlipMathPolicy(0.5), seed: 5, trainerToken: TRAINER });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
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
