import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobStore, migrate, openDatabase, readMigrationFiles } from "../src/index";
import { makeJob, makeTurn } from "./support/job-fixtures";
import { describeJobStoreContract } from "./support/job-store-contract";
import {
  dropSchema,
  freshSchemaName,
  requirePostgres,
  TEST_DATABASE_URL,
} from "./support/postgres-test-database";
import { prismaHarness } from "./support/prisma-harness";

const contractSchema = freshSchemaName();
describeJobStoreContract(
  "PrismaJobStore on PostgreSQL",
  prismaHarness(
    async () => {
      await requirePostgres();
      return createJobStore({ databaseUrl: TEST_DATABASE_URL, schema: contractSchema });
    },
    () => dropSchema(contractSchema),
  ),
);

describe("PrismaJobStore on PostgreSQL: migrations", () => {
  const schemas: string[] = [];
  const schema = () => {
    const name = freshSchemaName();
    schemas.push(name);
    return name;
  };
  beforeAll(requirePostgres);
  afterAll(async () => {
    for (const name of schemas) await dropSchema(name);
  });

  it("migrating twice is a no-op", async () => {
    const name = schema();
    const database = await openDatabase({ databaseUrl: TEST_DATABASE_URL, schema: name });
    try {
      const files = await readMigrationFiles();
      const first = await migrate(database.migrationTarget);
      expect(first.applied).toEqual(files.map((file) => file.name));
      const second = await migrate(database.migrationTarget);
      expect(second).toEqual({ applied: [], alreadyApplied: first.applied });
      const rows = await database.prisma.$queryRawUnsafe<{ migration_name: string }[]>(
        `SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name`,
      );
      expect(rows.map((row) => row.migration_name)).toEqual(first.applied);
    } finally {
      await database.close();
    }
  });

  it("two concurrent migrators apply each migration exactly once", async () => {
    const name = schema();
    const [a, b] = await Promise.all([
      openDatabase({ databaseUrl: TEST_DATABASE_URL, schema: name }),
      openDatabase({ databaseUrl: TEST_DATABASE_URL, schema: name }),
    ]);
    try {
      const results = await Promise.all([migrate(a.migrationTarget), migrate(b.migrationTarget)]);
      const files = (await readMigrationFiles()).map((file) => file.name);
      expect([...results[0].applied, ...results[1].applied].sort()).toEqual(files.sort());
      expect(results.some((result) => result.applied.length === 0)).toBe(true);
      const rows = await a.prisma.$queryRawUnsafe<{ n: bigint | number }[]>(
        `SELECT count(*) AS n FROM "_prisma_migrations"`,
      );
      expect(Number(rows[0]?.n)).toBe(files.length);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it("keeps each schema's data apart and honours ?schema= in the URL", async () => {
    const one = schema();
    const two = schema();
    const storeOne = await createJobStore({ databaseUrl: TEST_DATABASE_URL, schema: one });
    const storeTwo = await createJobStore({ databaseUrl: `${TEST_DATABASE_URL}?schema=${two}` });
    try {
      expect(storeOne.kind).toBe("postgres");
      const job = makeJob({ jobKey: "only-in-one" });
      await storeOne.insertJobs([job]);
      await storeOne.appendTurns([makeTurn(job.id, 0)]);
      expect(await storeOne.findJobByKey("only-in-one")).toEqual(job);
      expect(await storeTwo.findJobByKey("only-in-one")).toBeNull();
      expect((await storeTwo.totals()).submitted).toBe(0);
    } finally {
      await Promise.all([storeOne.close(), storeTwo.close()]);
    }
  });
});
