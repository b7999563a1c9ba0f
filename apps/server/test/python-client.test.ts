// The Python trainer client (clients/python, standard library only) against the real running
// server: its unittest suite (client calls, errors, the /openapi.json drift check) and the GRPO
// example loop. Tasks are the diagnostic `sleep` handler, so no sandbox or model is involved.
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";

const CLIENT_DIR = fileURLToPath(new URL("../../../clients/python/", import.meta.url));
const TRAINER = "python-client-trainer";
const ADMIN = "python-client-admin";

function requirePython(): void {
  const probe = spawnSync("python3", ["-c", "import sys; assert sys.version_info >= (3, 10)"], {
    encoding: "utf8",
  });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      "python3 (3.10 or newer) is missing; install it with: apt-get install -y python3 (the client needs nothing else)",
    );
  }
}

function runPython(args: string[], env: Record<string, string>) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn("python3", args, {
      cwd: CLIENT_DIR,
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: "1", PYTHONUNBUFFERED: "1", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

describe("the Python trainer client against a running server", () => {
  let server: RunningServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    requirePython();
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
    const run = await runPython(["-m", "unittest", "discover", "-s", "tests", "-v"], env);
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
      {
        ...env,
      },
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
      expect(step).toMatchObject({ status: "completed", groups: 3, informative: 3 });
      // Informative groups of 0/1 rewards: the mean is strictly between.
      expect(step.meanReward).toBeGreaterThan(0);
      expect(step.meanReward).toBeLessThan(1);
    }
    expect(await policyWeightVersion()).toBe(before + 3);
  }, 300_000);

  it("exits 1 with the server's code and message when a request is refused", async () => {
    const run = await runPython(["examples/grpo_loop.py", "--steps", "1"], { ...env, RAAS_TOKEN: "" });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^FAIL: UNAUTHORIZED \(401\): /);
  }, 120_000);
});
