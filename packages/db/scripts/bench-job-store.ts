// Measures JobStore write throughput the way the engine writes (coalesced batches).
//   npx tsx packages/db/scripts/bench-job-store.ts [--jobs 20000] [--batch 500] [--database-url postgresql://…]
// Without --database-url it runs on a PGlite data directory in a temp folder (removed afterwards);
// with one, in a fresh schema that is dropped afterwards.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { JobRecord } from "@raas/engine";
import { newId } from "@raas/shared";
import { createJobStore } from "../src/index";

const { values } = parseArgs({
  options: {
    jobs: { type: "string", default: "20000" },
    batch: { type: "string", default: "500" },
    "database-url": { type: "string" },
  },
});
const total = Number(values.jobs);
const batchSize = Number(values.batch);
const databaseUrl = values["database-url"];
const schema = `raas_bench_${randomBytes(4).toString("hex")}`;
const dataDir = databaseUrl ? undefined : await mkdtemp(path.join(tmpdir(), "raas-bench-"));

function job(i: number): JobRecord {
  const now = Date.now();
  return {
    id: newId("job"),
    jobKey: `bench-${i}`,
    kind: "swe",
    status: "submitted",
    stage: null,
    priority: 0,
    groupId: `grp_${Math.floor(i / 8)}`,
    batchId: "bat_bench",
    payload: { instanceId: `astropy__astropy-${i}`, repo: "astropy/astropy", n: i },
    metadata: { run: "bench" },
    ownerId: null,
    policyId: "default",
    timeoutsMs: { run: 3_600_000 },
    failure: null,
    reward: null,
    trainable: null,
    result: null,
    timings: { queueMs: 0, initMs: null, runMs: null, evalMs: null },
    attempts: 0,
    createdAtMs: now,
    updatedAtMs: now,
    finishedAtMs: null,
  };
}

const store = await createJobStore(databaseUrl ? { databaseUrl, schema } : { dataDir: dataDir as string });
try {
  const jobs = Array.from({ length: total }, (_, i) => job(i));
  let started = performance.now();
  for (let i = 0; i < total; i += batchSize) await store.insertJobs(jobs.slice(i, i + batchSize));
  const insertMs = performance.now() - started;

  started = performance.now();
  for (let i = 0; i < total; i += batchSize) {
    const batch = jobs.slice(i, i + batchSize);
    await store.updateJobs(
      batch.flatMap((j) => [
        { id: j.id, status: "queued" as const, stage: "init" as const, updatedAtMs: Date.now() },
        { id: j.id, status: "active" as const, updatedAtMs: Date.now() },
      ]),
    );
  }
  const updateMs = performance.now() - started;
  const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
  console.log(
    JSON.stringify({
      store: store.kind,
      jobs: total,
      batch: batchSize,
      insertJobsPerSec: rate(total, insertMs),
      updatePatchesPerSec: rate(total * 2, updateMs),
      updatedJobsPerSec: rate(total, updateMs),
    }),
  );
} finally {
  if (databaseUrl) {
    await store.prisma.$executeRawUnsafe(`DROP SCHEMA "${schema}" CASCADE`);
  }
  await store.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
