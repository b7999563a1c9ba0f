// The SandboxEventStore contract on every adapter: in memory, PGlite and PostgreSQL (fresh schema).
import { MemorySandboxEventStore, type SandboxEventRecord, type SandboxEventStore } from "@raas/engine";
import { afterAll, describe, expect, it } from "vitest";
import { createJobStore, PrismaSandboxEventStore } from "../src/index";
import {
  dropSchema,
  freshSchemaName,
  requirePostgres,
  TEST_DATABASE_URL,
} from "./support/postgres-test-database";

const schema = freshSchemaName();
type Opened = { store: SandboxEventStore; close: () => Promise<void> };
const targets: Array<[string, () => Promise<Opened>]> = [
  ["memory", async () => ({ store: new MemorySandboxEventStore(), close: async () => {} })],
  [
    "PGlite",
    async () => {
      const jobs = await createJobStore({ dataDir: "memory://" });
      return { store: new PrismaSandboxEventStore(jobs.prisma), close: () => jobs.close() };
    },
  ],
  [
    "PostgreSQL",
    async () => {
      await requirePostgres();
      const jobs = await createJobStore({ databaseUrl: TEST_DATABASE_URL, schema });
      return { store: new PrismaSandboxEventStore(jobs.prisma), close: () => jobs.close() };
    },
  ],
];

afterAll(() => dropSchema(schema));

function event(
  sandboxId: string,
  type: string,
  atMs: number,
  detail: Record<string, unknown> | null = {},
  state: SandboxEventRecord["state"] = "ready",
  hostId = "node-1:10",
): SandboxEventRecord {
  return { sandboxId, jobId: `job_${sandboxId}`, hostId, type, state, detail, atMs };
}

describe.each(targets)("SandboxEventStore on %s", (_name, open) => {
  it("stores events across batches and folds one row per sandbox, with a summary", async () => {
    const { store, close } = await open();
    try {
      await store.appendEvents([
        event("sb_a", "created", 1_000, { runtime: "bubblewrap", hostDir: "/tmp/x" }, "starting"),
        event("sb_a", "ready", 1_050, { readyMs: 48.25 }),
        event("sb_b", "created", 1_100, { runtime: "bubblewrap" }, "starting", "node-2:20"),
        event("sb_b", "start_failed", 1_120, { error: "bwrap: setting up uid map" }, "failed", "node-2:20"),
        event("sb_b", "closed", 1_130, { reason: "start_failed" }, "failed", "node-2:20"),
      ]);
      await store.appendEvents([
        event("sb_a", "limit_hit", 1_500, { limit: "memory", tool: "bash" }),
        event("sb_a", "limit_hit", 1_600, { limit: "processes", tool: "bash" }),
        event("sb_a", "crashed", 2_000, { exitCode: null, signal: "SIGKILL", stderrTail: "oom" }, "failed"),
        event("sb_a", "closed", 2_250, { reason: "crashed", leftoverPids: 0 }, "failed"),
        event("sb_c", "created", 3_000, null, "starting"),
      ]);
      expect(await store.getSandbox("sb_a")).toEqual({
        id: "sb_a",
        jobId: "job_sb_a",
        hostId: "node-1:10",
        runtime: "bubblewrap",
        state: "failed",
        createdAtMs: 1_000,
        readyMs: 48.25,
        closedAtMs: 2_250,
        lifetimeMs: 1_250,
        closeReason: "crashed",
        limitKind: "memory",
        limitHits: 2,
        exitCode: null,
        exitSignal: "SIGKILL",
        stderrTail: "oom",
        error: null,
        updatedAtMs: 2_250,
      });
      expect(await store.getSandbox("sb_b")).toMatchObject({
        error: "bwrap: setting up uid map",
        readyMs: null,
      });
      expect(await store.getSandbox("nope")).toBeNull();

      const newest = await store.listEvents({ limit: 2 });
      expect(newest.map((e) => [e.sandboxId, e.type])).toEqual([
        ["sb_c", "created"],
        ["sb_a", "closed"],
      ]);
      expect(newest[1]).toEqual(
        event("sb_a", "closed", 2_250, { reason: "crashed", leftoverPids: 0 }, "failed"),
      );
      expect(newest[0]?.detail).toBeNull();
      expect((await store.listEvents({ type: "limit_hit" })).map((e) => e.detail?.limit)).toEqual([
        "processes",
        "memory",
      ]);
      expect((await store.listEvents({ hostId: "node-2:20" })).map((e) => e.type)).toEqual([
        "closed",
        "start_failed",
        "created",
      ]);
      expect(await store.listEvents({ jobId: "job_sb_a", sinceMs: 2_000 })).toHaveLength(2);

      expect(await store.summarize()).toEqual({
        sandboxes: 3,
        byState: { failed: 2, starting: 1 },
        byCloseReason: { crashed: 1, start_failed: 1 },
        limitHits: { memory: 1, processes: 1 },
        crashed: 1,
        startFailed: 1,
        cancelled: 0,
        live: 1,
        meanReadyMs: 48.25,
        meanLifetimeMs: 640,
      });
      expect(await store.summarize({ hostId: "node-2:20" })).toMatchObject({
        sandboxes: 1,
        limitHits: {},
        startFailed: 1,
        meanReadyMs: null,
      });
      expect((await store.summarize({ sinceMs: 2_500 })).sandboxes).toBe(1);
      // Times past 2^53 (the latest Date, 8.64e15 ms, is below it; 1e16 is not) are still numbers.
      for (const sinceMs of [8_640_000_000_000_000, 1e16, 1e300]) {
        expect(await store.summarize({ sinceMs })).toMatchObject({ sandboxes: 0, limitHits: {} });
        expect(await store.listEvents({ sinceMs })).toEqual([]);
      }
    } finally {
      await close();
    }
  });

  it("closes the open records of a dead host, once, and counts only live hosts' sandboxes as live", async () => {
    const { store, close } = await open();
    const lost = "node-9:99";
    const live = "node-5:50";
    try {
      await store.appendEvents([
        event("h_starting", "created", 1_000, { runtime: "bubblewrap" }, "starting", lost),
        event("h_ready", "created", 1_000, { runtime: "bubblewrap" }, "starting", lost),
        event("h_ready", "ready", 1_040, { readyMs: 40 }, "ready", lost),
        event("h_busy", "created", 1_000, {}, "starting", lost),
        event("h_busy", "ready", 1_010, {}, "busy", lost),
        event("h_done", "created", 1_000, {}, "starting", lost),
        event("h_done", "closed", 1_500, { reason: "closed" }, "closed", lost),
        event("other", "created", 1_000, {}, "starting", live),
        event("other", "ready", 1_020, {}, "ready", live),
        event("cancelled", "created", 1_000, {}, "starting", live),
        event("cancelled", "start_cancelled", 1_030, {}, "closed", live),
        event("cancelled", "closed", 1_031, { reason: "cancelled" }, "closed", live),
      ]);
      expect(await store.listOpenHostIds()).toEqual(expect.arrayContaining([live, lost]));
      expect((await store.summarize({ hostId: lost })).live).toBe(3);

      const closure = { reason: "worker_lost", state: "failed", atMs: 5_000 } as const;
      expect((await store.closeHostSandboxes(lost, closure)).sort()).toEqual([
        "h_busy",
        "h_ready",
        "h_starting",
      ]);
      expect(await store.getSandbox("h_ready")).toMatchObject({
        state: "failed",
        closeReason: "worker_lost",
        closedAtMs: 5_000,
        lifetimeMs: 4_000,
        readyMs: 40,
        runtime: "bubblewrap",
      });
      expect(await store.getSandbox("h_done")).toMatchObject({
        state: "closed",
        closeReason: "closed",
        closedAtMs: 1_500,
      });
      expect((await store.listEvents({ sandboxId: "h_starting", limit: 1 }))[0]).toMatchObject({
        type: "closed",
        state: "failed",
        hostId: lost,
        detail: { reason: "worker_lost", closedBy: "recovery" },
      });
      // Idempotent: nothing is open any more, and no second event is written.
      expect(await store.closeHostSandboxes(lost, { ...closure, atMs: 6_000 })).toEqual([]);
      expect(await store.listEvents({ sandboxId: "h_ready", type: "closed" })).toHaveLength(1);

      expect(await store.listOpenHostIds()).toContain(live);
      expect(await store.listOpenHostIds()).not.toContain(lost);
      expect(await store.summarize({ hostId: lost })).toMatchObject({
        live: 0,
        byState: { failed: 3, closed: 1 },
        byCloseReason: { worker_lost: 3, closed: 1 },
      });
      // The live host's sandbox stays open; its cancelled start is a cancellation, not a failure.
      expect(await store.summarize({ hostId: live })).toMatchObject({
        live: 1,
        cancelled: 1,
        startFailed: 0,
      });
    } finally {
      await close();
    }
  });
});
