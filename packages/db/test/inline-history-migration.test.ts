import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { createJobStore, PrismaCurriculumStore, type PrismaJobStore } from "../src/index";
import {
  dropSchema,
  freshSchemaName,
  requirePostgres,
  TEST_DATABASE_URL,
} from "./support/postgres-test-database";

const MIGRATION = new URL(
  "../../../prisma/migrations/20261201031500_inline_history_per_run/migration.sql",
  import.meta.url,
);

describe("migration inline_history_per_run on PostgreSQL", () => {
  const schema = freshSchemaName();
  let jobStore: PrismaJobStore | null = null;
  afterAll(async () => {
    try {
      await jobStore?.close();
    } finally {
      await dropSchema(schema);
    }
  });

  it("moves inline tasks' history and sampler clock under inline:<run id>, leaving datasets alone", async () => {
    await requirePostgres();
    jobStore = await createJobStore({ databaseUrl: TEST_DATABASE_URL, schema });
    const store = new PrismaCurriculumStore(jobStore.prisma);
    // Rows as sessions before the migration wrote them: every run's inline tasks under `inline`.
    await store.recordOutcomes("inline", "run-a", [{ taskId: "t-1", outcomes: "11" }], 1);
    await store.recordOutcomes("inline", "run-b", [{ taskId: "t-1", outcomes: "0" }], 2);
    await store.recordOutcomes("swe", "run-a", [{ taskId: "t-1", outcomes: "1" }], 3);
    await store.saveSamplerState("run-a", "inline", { draws: 4 });
    for (const statement of readFileSync(MIGRATION, "utf8")
      .split(";")
      .filter((s) => s.trim())) {
      await jobStore.prisma.$executeRawUnsafe(statement);
    }
    expect(await store.listTaskHistory("inline", null)).toEqual([]);
    expect(await store.listTaskHistory("inline:run-a", "run-a")).toEqual([
      expect.objectContaining({ taskId: "t-1", attempts: 2, successes: 2 }),
    ]);
    expect(await store.listTaskHistory("inline:run-b", null)).toEqual([
      expect.objectContaining({ taskId: "t-1", attempts: 1, successes: 0 }),
    ]);
    expect(await store.listTaskHistory("swe", null)).toEqual([
      expect.objectContaining({ taskId: "t-1", attempts: 1 }),
    ]);
    expect(await store.getSamplerState("run-a", "inline:run-a")).toMatchObject({ draws: 4 });
  });
});
