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
});
