import { afterEach, describe, expect, it } from "vitest";
import {
  type FairShareEngines,
  type SleepStageEvent,
  sleepJobsOfRun,
  startFairShareEngines,
} from "./support/redis-fair-share-engines";
import { freshPrefix, REDIS_URL } from "./support/redis-test-env";
import { until } from "./support/until";

// Distributed mode in one process: a control-plane engine with no pools admits the jobs of two
// runs (weights 3:1) fairly to the Redis INIT queue and follows them through the Redis event bus;
// a worker engine on the same Redis runs every stage. The test asserts the order and counts of the
// worker's stage events; the slot-time ratio (3:1 within ±10 %) is real time and is measured by
// `npm run bench -- fair-share`. The polls below wait on Redis, an external process.
describe("fair sharing with the stage queues on Redis", () => {
  let engines: FairShareEngines | undefined;
  afterEach(async () => {
    await engines?.stop();
    engines = undefined;
  });

  it("serves two backlogged runs of weights 3:1 through Redis, the heavier more, each job's stages in order", async () => {
    const events: SleepStageEvent[] = [];
    engines = await startFairShareEngines({
      url: REDIS_URL,
      prefix: freshPrefix(),
      onStage: (event) => void events.push(event),
    });
    const { server } = engines;

    const heavy = await server.submitJobs(sleepJobsOfRun("run_heavy", 3, 40, 150));
    const light = await server.submitJobs(sleepJobsOfRun("run_light", 1, 80, 150));
    const runOf = new Map<string, string>();
    for (const { job } of heavy) runOf.set(job.id, "run_heavy");
    for (const { job } of light) runOf.set(job.id, "run_light");

    const evalsEnded = () => events.filter((e) => e.stage === "eval" && e.phase === "cleanup");
    await until(() => evalsEnded().length >= 80, "80 jobs", 120_000);
    // Both runs are still backlogged: what follows is a share of saturated slots.
    const flows = server.fairShare();
    expect(flows.find((flow) => flow.flowId === "run_heavy")?.waiting).toBeGreaterThan(0);
    expect(flows.find((flow) => flow.flowId === "run_light")?.waiting).toBeGreaterThan(0);

    const ended = evalsEnded().map((e) => e.jobId);
    // Each ended job went INIT → RUN → EVAL on the worker, each stage started and cleaned up once.
    for (const jobId of ended) {
      expect(events.filter((e) => e.jobId === jobId).map((e) => `${e.stage} ${e.phase}`)).toEqual([
        "init start",
        "init cleanup",
        "run start",
        "run cleanup",
        "eval start",
        "eval cleanup",
      ]);
    }
    // Both runs were served; the weight-3 run (whose jobs are also half as long) ended more jobs.
    const endedOf = (run: string) => ended.filter((jobId) => runOf.get(jobId) === run).length;
    expect(endedOf("run_light")).toBeGreaterThan(0);
    expect(endedOf("run_heavy")).toBeGreaterThan(endedOf("run_light"));
    await server.cancel({ batchId: "run_heavy" });
    await server.cancel({ batchId: "run_light" });
  }, 240_000);
});
