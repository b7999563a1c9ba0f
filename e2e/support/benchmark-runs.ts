import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { apiClient } from "./api-client";

const SWE_INSTANCES = join(
  dirname(fileURLToPath(import.meta.url)),
  "../../packages/handlers/data/swe/instances.jsonl",
);

/** The instance ids of the SWE fixtures the repository ships. */
function shippedSweInstanceIds(): string[] {
  return readFileSync(SWE_INSTANCES, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => (JSON.parse(line) as { instance_id: string }).instance_id);
}

/** One run to store: its model and which of the shipped instances (by position) it resolved. */
export interface BenchmarkRunSeed {
  model: string;
  solved: readonly number[];
}

/**
 * Stores one benchmark run per seed through the API, as `raas eval swe` does (createRun,
 * recordResults, finishRun), over every shipped SWE instance; result `i` of each run names
 * `jobIds[i]` where given. Returns the run ids, in seed order.
 */
export async function storeBenchmarkRuns(
  tag: string,
  seeds: readonly BenchmarkRunSeed[],
  jobIds: readonly string[] = [],
): Promise<string[]> {
  const api = apiClient("trainer");
  const instanceIds = shippedSweInstanceIds();
  const runIds: string[] = [];
  for (const seed of seeds) {
    const id = `${tag}-${seed.model.replace(/[^\w.-]+/g, "_")}`;
    await api.benchmarks.createRun.mutate({
      id,
      model: seed.model,
      dataset: "raas-swe-fixtures",
      split: "test",
      config: { seededBy: "e2e" },
    });
    await api.benchmarks.recordResults.mutate({
      runId: id,
      results: instanceIds.map((instanceId, index) => ({
        instanceId,
        jobId: jobIds[index] ?? null,
        resolved: seed.solved.includes(index),
        failToPass: {
          [`tests/test_${index}.py::test_fix`]: seed.solved.includes(index) ? "PASSED" : "FAILED",
        },
      })),
    });
    await api.benchmarks.finishRun.mutate({ runId: id, status: "completed" });
    runIds.push(id);
  }
  return runIds;
}
