import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, sleepJob, startTestServer, type TestServer, TOKENS } from "./helpers/test-server";

describe("GET /api/v1/jobs by run, task and reward", () => {
  let server: TestServer;
  const api = (path: string) => `${server.url}/api/v1${path}`;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("filters by the metadata run and task labels and a reward range read from the query string", async () => {
    const label = (runId: string, taskId: string) => ({ metadata: { runId, taskId } });
    const jobs = [
      sleepJob({}, { ...label("run_f1", "t1"), payload: { initMs: 5, runMs: 5, evalMs: 5, reward: 1 } }),
      sleepJob({}, { ...label("run_f1", "t2"), payload: { initMs: 5, runMs: 5, evalMs: 5, reward: 0.25 } }),
      sleepJob({}, { ...label("run_f2", "t1"), payload: { initMs: 5, runMs: 5, evalMs: 5, reward: 0.5 } }),
    ];
    const batch = await http(api("/jobs/batch"), { body: { jobs }, token: TOKENS.trainer });
    expect(batch.status).toBe(200);
    const ids = (batch.body.results as Array<{ job: { id: string } }>).map((result) => result.job.id);
    const waited = await http(api("/jobs/wait"), { body: { ids, timeoutMs: 20_000 }, token: TOKENS.trainer });
    expect(waited.body.done).toBe(true);

    const listed = async (query: string) =>
      ((await http(api(`/jobs?${query}`))).body.items as Array<{ id: string }>).map((job) => job.id).sort();
    expect(await listed("runId=run_f1")).toEqual([ids[0], ids[1]].sort());
    expect(await listed("taskId=t1")).toEqual([ids[0], ids[2]].sort());
    expect(await listed("runId=run_f1&minReward=0.5")).toEqual([ids[0]]);
    expect(await listed("taskId=t1&maxReward=0.5")).toEqual([ids[2]]);
    expect(await listed("minReward=0.3&maxReward=0.6&runId=run_f2")).toEqual([ids[2]]);

    const bad = await http(api("/jobs?minReward=high"));
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain("minReward");
  });
});
