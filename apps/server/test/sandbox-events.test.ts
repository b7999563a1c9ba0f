// Sandbox lifecycle events, stored: the server subscribes its runtime's events and stores them
// (PGlite here) with job, host, timings, limit kind, exit signal and stderr tail; `sandboxes.*`
// read them. Real bubblewrap sandboxes: one closed normally, one closed by its wall-time limit,
// one whose launcher is killed from outside (a crash).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createJobStore, PrismaSandboxEventStore } from "@raas/db";
import type { Sandbox } from "@raas/engine";
import type { ManagedSandbox } from "@raas/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningServer, startServer } from "../src/server";

const HOST_ID = "test-node:4711";
let running: RunningServer;
let dataDir: string;
let baseDir: string;

async function trpc<T>(path: string, input: unknown): Promise<{ status: number; body: T }> {
  const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const response = await fetch(`${running.url}/trpc/${path}${query}`);
  const json = (await response.json()) as { result?: { data: T }; error?: unknown };
  return { status: response.status, body: (json.result?.data ?? json.error) as T };
}

async function settled(sandbox: Sandbox): Promise<void> {
  await expect.poll(() => sandbox.state, { timeout: 30_000 }).toMatch(/^(closed|failed)$/);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "raas-sandbox-events-data-"));
  baseDir = mkdtempSync(join(tmpdir(), "raas-sandbox-events-"));
  running = await startServer({
    port: 0,
    logLevel: "silent",
    store: { kind: "db", dataDir },
    auth: { adminToken: "events-admin" },
    agentHandlers: false,
    sandbox: { runtime: "bubblewrap", baseDir },
    hostId: HOST_ID,
  });
});

afterAll(async () => {
  await running?.close({ graceMs: 100 });
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(baseDir, { recursive: true, force: true });
});

describe("sandbox events stored by the server", () => {
  let crashedId = "";

  it("stores created, ready, limit_hit, crashed and closed with job, host and timings", async () => {
    const runtime = running.sandboxRuntime;
    const normal = await runtime.create({ jobId: "job_ev_normal" });
    await normal.close();
    const limited = await runtime.create({ jobId: "job_ev_limit", limits: { wallTimeMs: 300 } });
    await settled(limited);
    const crashing = (await runtime.create({ jobId: "job_ev_crash" })) as ManagedSandbox;
    crashedId = crashing.id;
    process.kill(crashing.hostPid!, "SIGKILL");
    await settled(crashing);

    await expect
      .poll(async () => (await trpc<{ sandboxes: number }>("sandboxes.summary", {})).body.sandboxes, {
        timeout: 30_000,
      })
      .toBe(3);
    await expect
      .poll(async () => (await trpc<{ byState: object }>("sandboxes.summary", {})).body.byState, {
        timeout: 30_000,
      })
      .toEqual({ closed: 2, failed: 1 });
    // A crash is stored as two events (crashed: state failed; closed: its close reason), possibly
    // in two writes: the summary is polled until both are in.
    const hostSummary = async () =>
      (await trpc<Record<string, unknown>>("sandboxes.summary", { hostId: HOST_ID })).body;
    await expect.poll(hostSummary, { timeout: 30_000 }).toMatchObject({
      sandboxes: 3,
      byCloseReason: { closed: 1, wall_time: 1, crashed: 1 },
      limitHits: { wallTime: 1 },
      crashed: 1,
      startFailed: 0,
    });
    const summary = await hostSummary();
    expect(summary.meanReadyMs).toBeGreaterThan(0);
    expect(summary.meanLifetimeMs).toBeGreaterThan(0);

    const { body: crash } = await trpc<{ sandbox: Record<string, unknown> }>("sandboxes.get", {
      id: crashedId,
    });
    expect(crash.sandbox).toMatchObject({
      jobId: "job_ev_crash",
      hostId: HOST_ID,
      runtime: "bubblewrap",
      state: "failed",
      closeReason: "crashed",
      exitSignal: "SIGKILL",
    });
    expect(crash.sandbox.readyMs).toBeGreaterThan(0);
    expect(crash.sandbox.lifetimeMs).toBeGreaterThan(0);
    expect(typeof crash.sandbox.stderrTail === "string" || crash.sandbox.stderrTail === null).toBe(true);

    const { body: limitEvents } = await trpc<{ events: Array<Record<string, unknown>> }>("sandboxes.events", {
      jobId: "job_ev_limit",
    });
    expect(limitEvents.events.map((event) => event.type)).toEqual(
      expect.arrayContaining(["created", "ready", "limit_hit", "closed"]),
    );
    expect(limitEvents.events[0]).toMatchObject({ type: "closed", detail: { reason: "wall_time" } });
    const { body: crashes } = await trpc<{ events: Array<Record<string, unknown>> }>("sandboxes.events", {
      type: "crashed",
    });
    expect(crashes.events).toHaveLength(1);
    expect(crashes.events[0]).toMatchObject({
      sandboxId: crashedId,
      hostId: HOST_ID,
      detail: { signal: "SIGKILL" },
    });

    // The same over REST, declared once beside each procedure.
    const rest = (path: string) => fetch(`${running.url}/api/v1/sandboxes${path}`);
    const restCrash = await rest(`/${encodeURIComponent(crashedId)}`);
    expect(restCrash.status).toBe(200);
    expect(((await restCrash.json()) as { sandbox: { exitSignal: string } }).sandbox.exitSignal).toBe(
      "SIGKILL",
    );
    const restEvents = (await (await rest("/events?type=limit_hit&limit=5")).json()) as {
      events: Array<{ detail: { limit: string } }>;
    };
    expect(restEvents.events.map((event) => event.detail.limit)).toEqual(["wallTime"]);
    expect(((await (await rest("/summary")).json()) as { sandboxes: number }).sandboxes).toBe(3);
  });

  it("answers bad input with 400 and an unknown sandbox with 404", async () => {
    expect((await trpc("sandboxes.events", { sinceMs: "yesterday" })).status).toBe(400);
    expect((await trpc("sandboxes.events", { limit: 5_000 })).status).toBe(400);
    expect((await trpc("sandboxes.events", { hostId: "a\u0000b" })).status).toBe(400);
    expect((await trpc("sandboxes.get", { id: "raas-sb-nope" })).status).toBe(404);
    expect((await fetch(`${running.url}/api/v1/sandboxes/events?limit=zero`)).status).toBe(400);
    expect((await fetch(`${running.url}/api/v1/sandboxes/raas-sb-nope`)).status).toBe(404);
  });

  it("writes the last events before the store closes", async () => {
    const last = await running.sandboxRuntime.create({ jobId: "job_ev_last" });
    await last.close();
    await running.close({ graceMs: 100 });
    const jobs = await createJobStore({ dataDir: join(dataDir, "pglite") });
    try {
      const events = await new PrismaSandboxEventStore(jobs.prisma).listEvents({ jobId: "job_ev_last" });
      expect(events.map((event) => event.type)).toContain("closed");
    } finally {
      await jobs.close();
    }
  });
});
