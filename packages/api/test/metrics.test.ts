import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, sleepJob, startTestServer, type TestServer, TOKENS, trpcClient } from "./helpers/test-server";

/** The value of one sample line, e.g. `raas_stage_queued_jobs{stage="init"}`; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).split(" ")[0] ?? "";
    if (wanted.every((pair) => labelText.includes(pair))) return Number(line.split(" ").at(-1));
  }
  return 0;
}

describe("/metrics (Prometheus)", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ pools: { run: { concurrency: 1 } } });
  });
  afterAll(() => server.close());

  it("exposes the expected metric families", async () => {
    const { status, text, headers } = await http(`${server.url}/metrics`);
    expect(status).toBe(200);
    expect(headers.get("content-type")).toContain("text/plain");
    for (const name of [
      "raas_stage_queued_jobs",
      "raas_stage_active_jobs",
      "raas_stage_concurrency",
      "raas_jobs_completed_total",
      "raas_jobs_failed_total",
      "raas_jobs_tampered_total",
      "raas_stage_duration_seconds",
      "raas_http_requests_total",
    ]) {
      expect(text).toContain(`# TYPE ${name}`);
    }
    expect(sample(text, "raas_stage_concurrency", { stage: "run" })).toBe(1);
  });

  it("gauges, counters and histograms move after jobs run", async () => {
    const trainer = trpcClient(server.url, TOKENS.trainer);
    const blocker = await trainer.jobs.submit.mutate(sleepJob({ runMs: 60_000 }));
    const queued = await trainer.jobs.submit.mutate(sleepJob());
    // RUN has one slot: the blocker runs, the other job waits in the RUN queue.
    let during = "";
    for (let attempt = 0; attempt < 100; attempt += 1) {
      during = (await http(`${server.url}/metrics`)).text;
      if (sample(during, "raas_stage_queued_jobs", { stage: "run" }) === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(sample(during, "raas_stage_active_jobs", { stage: "run" })).toBe(1);
    expect(sample(during, "raas_stage_queued_jobs", { stage: "run" })).toBe(1);
    await trainer.jobs.cancel.mutate({ jobId: blocker.job.id });

    const failing = await trainer.jobs.submit.mutate(
      sleepJob(
        {},
        { payload: { initMs: 1, runMs: 1, evalMs: 1, fail: { eval: { rate: 1, kind: "eval" } } } },
      ),
    );
    const tampered = await trainer.jobs.submit.mutate(
      sleepJob(
        {},
        {
          payload: {
            initMs: 1,
            runMs: 1,
            evalMs: 1,
            fail: { eval: { rate: 1, kind: "agent", label: "tampered" } },
          },
        },
      ),
    );
    const ids = [queued.job.id, failing.job.id, tampered.job.id];
    const waited = await trainer.jobs.wait.query({ ids, timeoutMs: 10_000 });
    expect(waited.jobs.map((job) => job.status)).toEqual(["completed", "failed", "failed"]);

    const after = (await http(`${server.url}/metrics`)).text;
    expect(sample(after, "raas_jobs_completed_total", { handler: "sleep" })).toBe(1);
    expect(
      sample(after, "raas_jobs_failed_total", { failure_kind: "eval", stage: "eval", handler: "sleep" }),
    ).toBe(1);
    expect(
      sample(after, "raas_jobs_failed_total", { failure_kind: "agent", stage: "eval", handler: "sleep" }),
    ).toBe(1);
    expect(sample(after, "raas_jobs_tampered_total", { stage: "eval", handler: "sleep" })).toBe(1);
    const stats = await trainer.system.stats.query();
    expect([stats.failedByKind.agent, stats.failedByLabel.tampered]).toEqual([1, 1]);
    const listed = await trainer.jobs.list.query({ failureLabel: "tampered" });
    expect(listed.items.map((job) => [job.id, job.failure?.label, job.reward, job.trainable])).toEqual([
      [tampered.job.id, "tampered", 0, true],
    ]);
    expect(sample(after, "raas_jobs_cancelled_total", { stage: "run" })).toBe(1);
    expect(sample(after, "raas_stage_duration_seconds_count", { stage: "init", outcome: "ok" })).toBe(4);
    expect(sample(after, "raas_stage_duration_seconds_count", { stage: "eval", outcome: "eval" })).toBe(1);
    expect(sample(after, "raas_stage_duration_seconds_count", { stage: "eval", outcome: "agent" })).toBe(1);
    expect(sample(after, "raas_stage_active_jobs", { stage: "run" })).toBe(0);
    expect(
      sample(after, "raas_http_requests_total", {
        route: "/trpc/jobs.submit",
        method: "POST",
        status: "200",
      }),
    ).toBe(4);
  });
});
