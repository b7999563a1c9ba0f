import { afterAll, describe, expect, it } from "vitest";
import { createJobStore, PrismaBenchmarkRunStore, type PrismaJobStore } from "../src/index";
import {
  dropSchema,
  freshSchemaName,
  requirePostgres,
  TEST_DATABASE_URL,
} from "./support/postgres-test-database";

const schema = freshSchemaName();
const targets: Array<[string, () => Promise<PrismaJobStore>]> = [
  ["PGlite", () => createJobStore({ dataDir: "memory://" })],
  [
    "PostgreSQL",
    async () => {
      await requirePostgres();
      return createJobStore({ databaseUrl: TEST_DATABASE_URL, schema });
    },
  ],
];

afterAll(() => dropSchema(schema));

describe.each(targets)("PrismaBenchmarkRunStore on %s", (_name, open) => {
  it("stores runs and per-instance results with FAIL_TO_PASS / PASS_TO_PASS detail", async () => {
    const jobStore = await open();
    try {
      const store = new PrismaBenchmarkRunStore(jobStore.prisma);
      const base = {
        model: "Qwen3-8B",
        dataset: "swe-bench-verified",
        split: "test",
        config: { maxTurns: 50 },
      };
      await store.createRun({ id: "bench_1", status: "running", createdAtMs: 1_000, ...base });
      await store.createRun({
        id: "bench_2",
        status: "running",
        createdAtMs: 2_000,
        ...base,
        model: "Qwen3-4B",
      });
      const resolved = {
        instanceId: "astropy__astropy-12907",
        jobId: "job_1",
        resolved: true,
        failToPass: { "tests/test_sep.py::test_nested": "PASSED" },
        passToPass: { "tests/test_sep.py::test_simple": "PASSED" },
        detail: null,
        createdAtMs: 1_500,
      };
      const unresolved = { ...resolved, instanceId: "django__django-11099", resolved: false, jobId: null };
      await store.recordResults("bench_1", [resolved, unresolved]);
      expect(await store.getRun("bench_1")).toMatchObject({
        totalCount: 2,
        resolvedCount: 1,
        config: { maxTurns: 50 },
      });
      await store.recordResults("bench_1", [{ ...unresolved, resolved: true, detail: { retried: true } }]);
      await store.finishRun("bench_1", "completed", 9_000);
      expect(await store.getRun("bench_1")).toEqual({
        id: "bench_1",
        status: "completed",
        createdAtMs: 1_000,
        finishedAtMs: 9_000,
        totalCount: 2,
        resolvedCount: 2,
        rewardCount: 0,
        meanReward: null,
        ...base,
      });
      expect(await store.listResults("bench_1")).toEqual([
        { runId: "bench_1", ...resolved },
        { runId: "bench_1", ...unresolved, resolved: true, detail: { retried: true } },
      ]);
      expect((await store.listRuns()).map((run) => run.id)).toEqual(["bench_2", "bench_1"]);
      expect((await store.listRuns({ model: "Qwen3-4B" })).map((run) => run.id)).toEqual(["bench_2"]);
    } finally {
      await jobStore.close();
    }
  });

  it("averages the results' numeric detail.reward per run; errors and SWE results carry none", async () => {
    const jobStore = await open();
    try {
      const store = new PrismaBenchmarkRunStore(jobStore.prisma);
      const base = { model: "m", dataset: "math-verify", split: null, status: "running", config: null };
      await store.createRun({ id: "env_1", createdAtMs: 1, ...base });
      await store.createRun({ id: "env_2", createdAtMs: 2, ...base });
      const graded = (instanceId: string, reward: number) => ({
        instanceId,
        jobId: null,
        resolved: reward >= 1,
        failToPass: null,
        passToPass: null,
        detail: { reward, jobId: `job_${instanceId}` },
        createdAtMs: 3,
      });
      await store.recordResults("env_1", [
        graded("t1", 1),
        graded("t2", 0.25),
        { ...graded("t3", 0), detail: { reward: null, error: "eval in eval: verifier crashed" } },
        { ...graded("t4", 0), detail: { reward: "1" } },
        { ...graded("t5", 0), detail: null },
      ]);
      expect(await store.getRun("env_1")).toMatchObject({
        totalCount: 5,
        resolvedCount: 1,
        rewardCount: 2,
        meanReward: 0.625,
      });
      const listed = await store.listRuns({ dataset: "math-verify" });
      expect(listed.map((run) => [run.id, run.rewardCount, run.meanReward])).toEqual([
        ["env_2", 0, null],
        ["env_1", 2, 0.625],
      ]);
    } finally {
      await jobStore.close();
    }
  });
});
