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
});
