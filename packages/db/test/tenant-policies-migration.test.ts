// Migration tenant_policies on PostgreSQL: the single policy_state row of a store migrated before
// it becomes the default policy's row (version and pause kept, no owner), and existing jobs, runs
// and backends belong to the default policy, jobs without an owner.
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createJobStore, PrismaBatchStore, type PrismaJobStore } from "../src/index";
import { makeJob } from "./support/job-fixtures";
import {
  dropSchema,
  freshSchemaName,
  requirePostgres,
  TEST_DATABASE_URL,
} from "./support/postgres-test-database";

const MIGRATIONS = fileURLToPath(new URL("../../../prisma/migrations", import.meta.url));
const MIGRATION = "20261206185124_tenant_policies";

describe("migration tenant_policies on PostgreSQL", () => {
  const schema = freshSchemaName();
  const before = mkdtempSync(join(tmpdir(), "raas-migrations-before-"));
  let jobStore: PrismaJobStore | null = null;
  afterAll(async () => {
    try {
      await jobStore?.close();
    } finally {
      rmSync(before, { recursive: true, force: true });
      await dropSchema(schema);
    }
  });

  it("turns the stored policy state into the default policy's row; old rows get the default policy", async () => {
    await requirePostgres();
    // The store as it was before this migration: every earlier migration, and its rows.
    for (const name of readdirSync(MIGRATIONS)) {
      if (name < MIGRATION) cpSync(join(MIGRATIONS, name), join(before, name), { recursive: true });
    }
    const old = await createJobStore({ databaseUrl: TEST_DATABASE_URL, schema, migrationsDir: before });
    await old.prisma.$executeRawUnsafe(
      `INSERT INTO "policy_state" (id, weight_version, is_paused, pause_mode, paused_at_ms) VALUES (1, 41, true, 'wait', 1764000000000.5)`,
    );
    const job = makeJob();
    await old.prisma.$executeRawUnsafe(
      `INSERT INTO "jobs" (id, kind, status, payload, created_at_ms, updated_at_ms) VALUES ($1, 'sleep', 'queued', '{}', 1, 1)`,
      job.id,
    );
    await old.close();

    jobStore = await createJobStore({ databaseUrl: TEST_DATABASE_URL, schema });
    expect(await new PrismaBatchStore(jobStore.prisma).listPolicyStates()).toEqual([
      {
        policyId: "default",
        ownerId: null,
        weightVersion: 41,
        isPaused: true,
        pauseMode: "wait",
        pausedAtMs: 1_764_000_000_000.5,
      },
    ]);
    expect(await jobStore.getJob(job.id)).toMatchObject({ ownerId: null, policyId: "default" });
  });
});
