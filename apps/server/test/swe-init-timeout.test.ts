// A checkout or setup step that runs out of its time limit in INIT is a `timeout` failure (a slow
// host can cause it; nothing of the policy ran), never `eval` — real bubblewrap sandboxes over the
// shipped fixture bundles.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";

const SWE_DATA = fileURLToPath(new URL("../../../packages/handlers/data/swe/", import.meta.url));
const [INSTANCE] = readFileSync(join(SWE_DATA, "instances.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "")
  .map((line) => JSON.parse(line) as { instance_id: string; repo: string });

const running: RunningServer[] = [];
const dirs: string[] = [];

async function serverWithSetupLimit(setupTimeoutMs: number): Promise<RunningServer> {
  const baseDir = mkdtempSync(join(tmpdir(), "raas-swe-init-timeout-"));
  dirs.push(baseDir);
  const server = await startServer({
    port: 0,
    logLevel: "silent",
    auth: { adminToken: "swe-init-timeout" },
    agentHandlers: { swe: { reposDir: join(SWE_DATA, "bundles"), setupTimeoutMs } },
    sandbox: { runtime: "bubblewrap", baseDir },
  });
  running.push(server);
  return server;
}

afterAll(async () => {
  for (const server of running) await server.close({ graceMs: 100 });
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("swe INIT steps past their time limit", () => {
  it("fails a setup command that outlives the setup limit as timeout@init, not eval", async () => {
    const server = await serverWithSetupLimit(8_000);
    const { job } = await server.engine.submitJob({
      kind: "swe",
      payload: { instance: INSTANCE, spec: { setupCommands: ["sleep 600"] } },
    });
    const { jobs } = await server.engine.waitForJobs([job.id], { timeoutMs: 120_000 });
    expect(jobs[0]).toMatchObject({ status: "failed", reward: null, trainable: false });
    expect(jobs[0]?.failure).toMatchObject({ stage: "init", kind: "timeout" });
    expect(jobs[0]?.failure?.message).toContain("setup command `sleep 600` timed out");
  });

  it("fails a checkout that outlives the setup limit as timeout@init, not eval", async () => {
    // 1 ms: no checkout of a repository finishes that fast, however idle the host.
    const server = await serverWithSetupLimit(1);
    const { job } = await server.engine.submitJob({ kind: "swe", payload: { instance: INSTANCE } });
    const { jobs } = await server.engine.waitForJobs([job.id], { timeoutMs: 120_000 });
    expect(jobs[0]?.failure).toMatchObject({ stage: "init", kind: "timeout" });
    expect(jobs[0]?.failure?.message).toContain("checking out base_commit timed out");
  });
});
