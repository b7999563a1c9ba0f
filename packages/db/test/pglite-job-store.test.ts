import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJobStore, migrate, openDatabase } from "../src/index";
import { makeJob, makeTurn } from "./support/job-fixtures";
import { describeJobStoreContract } from "./support/job-store-contract";
import { prismaHarness } from "./support/prisma-harness";

let contractDir = "";
describeJobStoreContract(
  "PrismaJobStore on PGlite",
  prismaHarness(
    async () => {
      contractDir = await mkdtemp(path.join(tmpdir(), "raas-db-contract-"));
      return createJobStore({ dataDir: contractDir });
    },
    () => rm(contractDir, { recursive: true, force: true }),
  ),
);

describe("PrismaJobStore on PGlite: persistence and migrations", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "raas-db-pglite-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps data across close and reopen, and migrating again is a no-op", async () => {
    const dataDir = path.join(dir, "data");
    const first = await createJobStore({ dataDir });
    expect(first.kind).toBe("pglite");
    const job = makeJob({ jobKey: "persisted" });
    await first.insertJobs([job]);
    await first.appendTurns([makeTurn(job.id, 0)]);
    await first.close();
    await first.close();

    const database = await openDatabase({ dataDir });
    try {
      const again = await migrate(database.migrationTarget);
      expect(again.applied).toEqual([]);
      expect(again.alreadyApplied.length).toBeGreaterThan(0);
      const rows = await database.prisma.$queryRawUnsafe<{ n: bigint | number }[]>(
        `SELECT count(*) AS n FROM "_prisma_migrations"`,
      );
      expect(Number(rows[0]?.n)).toBe(again.alreadyApplied.length);
    } finally {
      await database.close();
    }

    const reopened = await createJobStore({ dataDir });
    try {
      expect(await reopened.findJobByKey("persisted")).toEqual(job);
      expect((await reopened.listTurns(job.id))[0]?.promptIds).toEqual(makeTurn(job.id, 0).promptIds);
    } finally {
      await reopened.close();
    }
  });

  it("replaces a turn written again under the same job and index", async () => {
    const store = await createJobStore({ dataDir: path.join(dir, "turns") });
    try {
      await store.appendTurns([
        makeTurn("job_r", 0),
        makeTurn("job_r", 0, { responseIds: [7], logprobs: [-1] }),
      ]);
      await store.appendTurns([makeTurn("job_r", 1)]);
      await store.appendTurns([makeTurn("job_r", 1, { responseIds: [9, 10], logprobs: [-0.5, -0.25] })]);
      const turns = await store.listTurns("job_r");
      expect(turns.map((turn) => turn.responseIds)).toEqual([[7], [9, 10]]);
      expect(turns[1]?.logprobs).toEqual([-0.5, -0.25]);
    } finally {
      await store.close();
    }
  });

  it("refuses the PostgreSQL-only schema option", async () => {
    await expect(createJobStore({ dataDir: path.join(dir, "x"), schema: "s" })).rejects.toThrow(/PostgreSQL/);
  });
});
