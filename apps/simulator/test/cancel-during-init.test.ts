// Cancels arriving at every moment of a sandbox's start (real bubblewrap sandboxes, the real math
// handler, the embedded engine) leave nothing behind: once idle, no bwrap process and no sandbox
// directory of the run remains. Dynamic sampling cancels redundant jobs this way all the time.
import { readdirSync, readFileSync } from "node:fs";
import { seededRandom, type TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TPolicyConfigInput } from "../src/index";
import { type RolloutFixture, readDataJson, readTasks, startRolloutFixture } from "./support/rollout-fixture";

const policy = readDataJson<TPolicyConfigInput>("simulator/math-code-stem.policy.json");
const JOBS = 48;
/** The moments a cancel is sent at: INIT just began; the launcher spawned; the server answered; a random delay. */
const MOMENTS = ["activated", "created", "ready", "delay"] as const;
type Moment = (typeof MOMENTS)[number];

/** Pids of live processes whose command line names `needle` (this run's base directory). */
function processesNaming(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(needle)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

function sandboxDirs(baseDir: string): string[] {
  return readdirSync(baseDir).filter((name) => name.startsWith("sbx-"));
}

async function eventually(predicate: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
}

describe("cancels at random moments of INIT with real sandboxes", () => {
  let fixture: RolloutFixture;
  let finished: TJob[] = [];
  const sentAt = new Map<string, Moment>();

  beforeAll(async () => {
    fixture = await startRolloutFixture({ policy, concurrency: 8 });
    const random = seededRandom(31);
    const tasks = readTasks("math.jsonl");
    const moments = new Map<string, Moment>();
    const cancel = (jobId: string, moment: Moment) => {
      if (moments.get(jobId) !== moment || sentAt.has(jobId)) return;
      sentAt.set(jobId, moment);
      void fixture.engine.cancel({ jobId });
    };
    fixture.runtime.onEvent((event) => {
      if (event.jobId && (event.type === "created" || event.type === "ready"))
        cancel(event.jobId, event.type);
    });
    fixture.engine.subscribe(({ job }) => {
      if (job.status !== "active" || job.stage !== "init") return;
      cancel(job.id, "activated");
      if (moments.get(job.id) === "delay")
        setTimeout(() => cancel(job.id, "delay"), Math.floor(random() * 600));
    });
    const requests = Array.from({ length: JOBS }, (_, i) => ({
      kind: "math",
      payload: tasks[i % tasks.length] as Record<string, unknown>,
    }));
    // Every job has its moment before any INIT starts.
    fixture.engine.setConcurrency("init", 0);
    const ids = (await fixture.engine.submitJobs(requests)).map((submitted) => submitted.job.id);
    for (const id of ids) moments.set(id, MOMENTS[Math.floor(random() * MOMENTS.length)] as Moment);
    fixture.engine.setConcurrency("init", 8);
    finished = (await fixture.engine.waitForJobs(ids, { timeoutMs: 240_000 })).jobs;
  }, 300_000);

  afterAll(async () => {
    await fixture?.close();
  });

  it("ends every job and leaves no bwrap process and no sandbox directory once idle", async () => {
    expect(finished.filter((job) => job.status !== "cancelled" && job.status !== "completed")).toEqual([]);
    const cancelledInInit = finished.filter(
      (job) => job.status === "cancelled" && job.failure?.stage === "init",
    );
    expect(cancelledInInit.length).toBeGreaterThanOrEqual(JOBS / 2);
    // Starts that outlived their cancel finish in their own time; wait for the run to go idle.
    await eventually(
      () => processesNaming(fixture.baseDir).length === 0 && sandboxDirs(fixture.baseDir).length === 0,
      60_000,
    );
    expect(processesNaming(fixture.baseDir)).toEqual([]);
    expect(sandboxDirs(fixture.baseDir)).toEqual([]);
    expect(fixture.engine.heldSandboxes).toBe(0);
  }, 90_000);
});
