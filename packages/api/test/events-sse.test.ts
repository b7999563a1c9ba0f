import type { TJob } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSse } from "./helpers/sse-reader";
import { sleepJob, startTestServer, type TestServer, TOKENS, trpcClient } from "./helpers/test-server";

describe("jobs.events: tRPC subscription over SSE", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  /** Collects job events from the stream until `until` says stop. */
  async function collect(
    input: unknown,
    until: (jobs: TJob[]) => boolean,
    headers: Record<string, string> = {},
  ) {
    const controller = new AbortController();
    const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    const jobs: TJob[] = [];
    const events: string[] = [];
    let onConnected: () => void = () => {};
    const connected = new Promise<void>((resolve) => {
      onConnected = resolve;
    });
    const timer = setTimeout(() => controller.abort(), 10_000);
    const opened = readSse(`${server.url}/trpc/jobs.events${query}`, { signal: controller.signal, headers });
    const done = (async () => {
      for await (const event of opened) {
        events.push(event.event);
        if (event.event === "connected") onConnected();
        if (event.event !== "message") continue;
        const parsed = JSON.parse(event.data) as { type: string; job: TJob };
        expect(parsed.type).toBe("job.updated");
        jobs.push(parsed.job);
        if (until(jobs)) break;
      }
    })();
    return {
      jobs,
      events,
      /** Resolves once the server has attached the subscription. */
      connected,
      finished: done.finally(() => {
        clearTimeout(timer);
        controller.abort();
      }),
    };
  }

  it("streams every transition of the watched job up to completed, and nothing of other jobs", async () => {
    const trainer = trpcClient(server.url, TOKENS.trainer);
    // INIT is long enough for the stream to attach before RUN starts, even on a loaded machine.
    const { job } = await trainer.jobs.submit.mutate(sleepJob({ initMs: 500, runMs: 50, evalMs: 50 }));
    const stream = await collect({ jobIds: [job.id] }, (jobs) => jobs.some((j) => j.status === "completed"));
    await trainer.jobs.submit.mutate(sleepJob()); // another job: must not show up
    await stream.finished;

    expect(stream.events[0]).toBe("connected");
    expect(stream.jobs.every((j) => j.id === job.id)).toBe(true);
    const statuses = stream.jobs.map((j) => `${j.status}:${j.stage}`);
    expect(statuses.at(-1)).toBe("completed:eval");
    expect(statuses).toContain("active:run");
  });

  it("streams all jobs of a batch without a job-id filter", async () => {
    const trainer = trpcClient(server.url, TOKENS.trainer);
    const stream = await collect(
      { batchId: "sse-batch" },
      (jobs) => jobs.filter((j) => j.status === "completed").length === 3,
    );
    await stream.connected;
    const { results } = await trainer.jobs.submitMany.mutate({
      jobs: [1, 2, 3].map(() => sleepJob({}, { batchId: "sse-batch" })),
    });
    await stream.finished;
    const completed = new Set(stream.jobs.filter((j) => j.status === "completed").map((j) => j.id));
    expect(completed).toEqual(new Set(results.map((r) => r.job.id)));
    expect(stream.jobs.every((j) => j.batchId === "sse-batch")).toBe(true);
  });

  it("needs a viewer token when reads are locked, passed as a header", async () => {
    const locked = await startTestServer({ auth: { requireViewerToken: true } });
    try {
      const denied = await fetch(`${locked.url}/trpc/jobs.events`, {
        headers: { accept: "text/event-stream" },
      });
      expect(denied.status).toBe(401);
      const controller = new AbortController();
      const stream = readSse(`${locked.url}/trpc/jobs.events`, {
        signal: controller.signal,
        headers: { authorization: `Bearer ${TOKENS.viewer}` },
      });
      const first = await stream.next();
      expect(first.value?.event).toBe("connected");
      controller.abort();
    } finally {
      await locked.close();
    }
  });
});
