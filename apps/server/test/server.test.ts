import { DEFAULT_WORKSPACE_SIZE_BYTES } from "@raas/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config-from-env";
import { parseServerEnv } from "../src/env";
import { type RunningServer, startServer } from "../src/server";

async function json(url: string, init: { method?: string; body?: unknown; token?: string | undefined } = {}) {
  const headers: Record<string, string> = {};
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(url, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  return { status: response.status, body: text.startsWith("{") ? JSON.parse(text) : text };
}

describe("startServer (in-process, real HTTP)", () => {
  let running: RunningServer;

  beforeAll(async () => {
    running = await startServer({ port: 0, logLevel: "silent", pools: { init: { concurrency: 4 } } });
  });
  afterAll(() => running.close({ graceMs: 100 }));

  it("generates an admin token when none is configured, and requires it for writes", async () => {
    expect(running.isAdminTokenGenerated).toBe(true);
    expect(running.auth.adminToken).toMatch(/^raas_[\w-]{32}$/);
    const denied = await json(`${running.url}/api/v1/jobs`, { body: { kind: "sleep" } });
    expect(denied.status).toBe(401);
    const accepted = await json(`${running.url}/api/v1/jobs`, {
      body: { kind: "sleep" },
      token: running.auth.adminToken,
    });
    expect(accepted.status).toBe(201);
  });

  it("runs jobs end to end with the sleep handler and the configured pools", async () => {
    const token = running.auth.adminToken;
    const { body } = await json(`${running.url}/api/v1/jobs/batch`, {
      body: {
        jobs: Array.from({ length: 8 }, () => ({
          kind: "sleep",
          payload: { initMs: 20, runMs: 20, evalMs: 20 },
        })),
      },
      token,
    });
    const ids = (body.results as Array<{ job: { id: string } }>).map((r) => r.job.id);
    const waited = await json(`${running.url}/api/v1/jobs/wait`, { body: { ids, timeoutMs: 20_000 }, token });
    expect(waited.body.done).toBe(true);
    const stats = await json(`${running.url}/api/v1/stats`);
    expect(stats.body.stages.init.concurrency).toBe(4);
    expect(stats.body.completed).toBeGreaterThanOrEqual(8);
    const metrics = await fetch(`${running.url}/metrics`).then((r) => r.text());
    expect(metrics).toContain("process_resident_memory_bytes");
    const completed = /raas_jobs_completed_total\{handler="sleep"\} (\d+)/.exec(metrics)?.[1];
    expect(Number(completed)).toBeGreaterThanOrEqual(8);
  });

  it("reports its sandbox runtime's limits in force in the health answer", async () => {
    const { status, body } = await json(`${running.url}/api/v1/health`);
    expect(status).toBe(200);
    expect(body.sandboxLimits).toMatchObject({
      runtime: "bubblewrap",
      memory: { enforcedBy: expect.stringMatching(/^(cgroup|watchdog)$/), bytes: expect.any(Number) },
      shmBytes: 256 * 1024 ** 2,
    });
  });

  it("reports the sandbox limits set in the environment (total CPU, workspace size) in the health answer", async () => {
    const fromEnv = configFromEnv(
      parseServerEnv({ RAAS_SANDBOX_TOTAL_CPU_SEC: "120", RAAS_SANDBOX_WORKSPACE_BYTES: "1073741824" }),
    );
    const limited = await startServer({
      port: 0,
      logLevel: "silent",
      agentHandlers: false,
      ...(fromEnv.sandbox ? { sandbox: fromEnv.sandbox } : {}),
    });
    try {
      const { status, body } = await json(`${limited.url}/api/v1/health`);
      expect(status).toBe(200);
      expect(body.sandboxLimits).toMatchObject({
        runtime: "bubblewrap",
        cpuTotal: { enforcedBy: "watchdog", seconds: 120 },
        disk: { enforcedBy: "watchdog", bytes: 1_073_741_824 },
        perProcess: { fileBytes: 1_073_741_824, cpuSec: expect.any(Number) },
        // The runtime's other defaults stay in force.
        memory: { bytes: expect.any(Number) },
        processes: { max: expect.any(Number) },
      });
      // Unset, the workspace still has its default quota (enforced without cgroups); total CPU has none.
      const unset = await json(`${running.url}/api/v1/health`);
      expect(unset.body.sandboxLimits).toMatchObject({
        cpuTotal: { enforcedBy: "none", seconds: null },
        disk: { enforcedBy: "watchdog", bytes: DEFAULT_WORKSPACE_SIZE_BYTES },
      });
    } finally {
      await limited.close({ graceMs: 100 });
    }
  });

  it("close() ends open long-polls and frees the port", async () => {
    const other = await startServer({ port: 0, logLevel: "silent", auth: { trainerToken: "t" } });
    expect(other.isAdminTokenGenerated).toBe(false);
    const { body } = await json(`${other.url}/api/v1/jobs`, {
      body: { kind: "sleep", payload: { runMs: 60_000 } },
      token: "t",
    });
    const poll = json(`${other.url}/api/v1/jobs/wait`, {
      body: { ids: [body.job.id], timeoutMs: 60_000 },
      token: "t",
    }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await other.close({ graceMs: 100 });
    // close() cut the poll off (its job had a minute left to run): no answer, a closed connection.
    expect(await poll).toBeInstanceOf(Error);
    await expect(fetch(`${other.url}/health`)).rejects.toThrow();
  });
});
