// The Python trainer client (clients/python, standard library only) against the real running
// server: its unittest suite (client calls, errors, the /openapi.json drift check) and the GRPO
// example loop. Tasks are the diagnostic `sleep` handler, so no sandbox or model is involved.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";
import { requirePython, runPython } from "./support/python-process";

const CLIENT_DIR = fileURLToPath(new URL("../../../clients/python/", import.meta.url));
const TRAINER = "python-client-trainer";
const ADMIN = "python-client-admin";

describe("the Python trainer client against a running server", () => {
  let server: RunningServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    requirePython(10);
    server = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      auth: { trainerToken: TRAINER, adminToken: ADMIN },
    });
    env = { RAAS_URL: server.url, RAAS_TOKEN: TRAINER, RAAS_ADMIN_TOKEN: ADMIN };
  }, 120_000);

  afterAll(async () => {
    await server?.close({ graceMs: 100 });
  });

  async function policyWeightVersion(): Promise<number | null> {
    const response = await fetch(`${server.url}/api/v1/policy`);
    return ((await response.json()) as { weightVersion: number | null }).weightVersion;
  }

  it("passes its unittest suite, the /openapi.json drift check included, with nothing skipped", async () => {
    const run = await runPython(["-m", "unittest", "discover", "-s", "tests", "-v"], env, {
      cwd: CLIENT_DIR,
    });
    // unittest reports on stderr; on failure the whole report is the most useful message.
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^OK$/m);
    expect(run.stderr).not.toContain("skipped");
    expect(run.stderr).toMatch(/test_every_operation_the_client_uses_matches_the_document .* \.\.\. ok$/m);
    const ran = /^Ran (\d+) tests?/m.exec(run.stderr);
    expect(Number(ran?.[1])).toBeGreaterThanOrEqual(30);
  }, 300_000);

  it("runs the GRPO example loop: every step hands out its groups and the weight version advances", async () => {
    const before = (await policyWeightVersion()) ?? 0;
    const run = await runPython(
      ["examples/grpo_loop.py", "--steps", "3", "--groups", "3", "--mode", "poll"],
      env,
      { cwd: CLIENT_DIR },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe("");
    const lines = run.stdout.trim().split("\n");
    expect(lines.filter((line) => line.startsWith("step "))).toHaveLength(3);
    const summary = JSON.parse(lines.at(-1) as string) as {
      ok: boolean;
      steps: { status: string; groups: number; informative: number; meanReward: number }[];
    };
    expect(summary.ok).toBe(true);
    for (const step of summary.steps) {
      expect(step).toMatchObject({ status: "completed", groups: 3 });
      // Informative groups beyond the three handed out are carried whole into the next step.
      expect(step.informative).toBeGreaterThanOrEqual(3);
      // Informative groups of 0/1 rewards: the mean is strictly between.
      expect(step.meanReward).toBeGreaterThan(0);
      expect(step.meanReward).toBeLessThan(1);
    }
    expect(await policyWeightVersion()).toBe(before + 3);
  }, 300_000);

  it("exits 1 with the server's code and message when a request is refused", async () => {
    const run = await runPython(
      ["examples/grpo_loop.py", "--steps", "1"],
      { ...env, RAAS_TOKEN: "" },
      { cwd: CLIENT_DIR },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^FAIL: UNAUTHORIZED \(401\): /);
  }, 120_000);
});
