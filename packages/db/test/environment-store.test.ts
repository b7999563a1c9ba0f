// The environment registry on every adapter: the in-memory one, PGlite and PostgreSQL. A save
// over an existing name keeps its creation time and its oracle check unless the source changed.
import { type EnvironmentStore, MemoryEnvironmentStore, type OracleCheckRecord } from "@raas/engine";
import { afterAll, describe, expect, it } from "vitest";
import { createJobStore, PrismaEnvironmentStore } from "../src/index";
import {
  dropSchema,
  freshSchemaName,
  requirePostgres,
  TEST_DATABASE_URL,
} from "./support/postgres-test-database";

const schema = freshSchemaName();
type Opened = { store: EnvironmentStore; close(): Promise<void> };
const prismaOn = async (options: Parameters<typeof createJobStore>[0]): Promise<Opened> => {
  const jobStore = await createJobStore(options);
  return { store: new PrismaEnvironmentStore(jobStore.prisma), close: () => jobStore.close() };
};
const targets: Array<[string, () => Promise<Opened>]> = [
  ["memory", async () => ({ store: new MemoryEnvironmentStore(), close: async () => {} })],
  ["PGlite", () => prismaOn({ dataDir: "memory://" })],
  [
    "PostgreSQL",
    async () => {
      await requirePostgres();
      return prismaOn({ databaseUrl: TEST_DATABASE_URL, schema });
    },
  ],
];

afterAll(() => dropSchema(schema));

const oracle: OracleCheckRecord = {
  checkedAtMs: 5_000,
  passed: 1,
  failed: 1,
  skipped: 0,
  rows: [
    { task: "a", oracleReward: 1, noopReward: 0, verdict: "pass", reasons: [], seconds: 1.5 },
    { task: "b", oracleReward: 0, noopReward: 0, verdict: "fail", reasons: ["oracle: reward 0"], seconds: 2 },
  ],
};

describe.each(targets)("EnvironmentStore on %s", (_name, open) => {
  it("registers, lists by name, records oracle checks and keeps them while the source holds", async () => {
    const { store, close } = await open();
    try {
      const math = {
        name: "math-verify",
        kind: "reward-fn",
        path: "/envs/math",
        description: "sums",
        taskCount: 20,
      };
      const harbor = {
        name: "harbor",
        kind: "harbor",
        path: "/envs/harbor",
        description: null,
        taskCount: 5,
      };
      expect(await store.save(math, 1_000)).toEqual({
        ...math,
        oracle: null,
        createdAtMs: 1_000,
        updatedAtMs: 1_000,
      });
      await store.save(harbor, 2_000);
      expect((await store.list()).map((e) => e.name)).toEqual(["harbor", "math-verify"]);
      expect(await store.recordOracle("math-verify", oracle, 3_000)).toMatchObject({
        oracle,
        updatedAtMs: 3_000,
      });
      expect(await store.recordOracle("missing", oracle, 3_000)).toBeNull();

      // The same source again (a re-registration, a new task count): the check stays.
      expect(await store.save({ ...math, taskCount: 21 }, 4_000)).toMatchObject({
        taskCount: 21,
        oracle,
        createdAtMs: 1_000,
        updatedAtMs: 4_000,
      });
      // Another directory under the same name: the check was of other tasks.
      expect(await store.save({ ...math, path: "/envs/math-v2" }, 5_000)).toMatchObject({
        path: "/envs/math-v2",
        oracle: null,
        createdAtMs: 1_000,
      });
      expect(await store.get("harbor")).toEqual({
        ...harbor,
        oracle: null,
        createdAtMs: 2_000,
        updatedAtMs: 2_000,
      });
      expect(await store.get("nope")).toBeNull();
    } finally {
      await close();
    }
  }, 120_000);
});
