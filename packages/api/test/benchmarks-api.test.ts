// The `benchmarks.*` procedures over real HTTP (REST and tRPC) on the engine's in-memory store:
// auth, every caller mistake as a 4xx with a sentence, the round trip, paging, OpenAPI, and a
// server without a store (503). The Prisma adapter behind them runs in apps/server/test.
import { MemoryBenchmarkRunStore } from "@raas/engine";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRandom, randomValue } from "./helpers/fuzz-cases";
import { http, startTestServer, type TestServer, TOKENS, trpcClient } from "./helpers/test-server";

const RUN = { id: "swe-mini-qwen3-1", model: "Qwen/Qwen3-8B", dataset: "swe-mini", split: "test" };
const result = (instanceId: string, resolved: boolean) => ({
  instanceId,
  jobId: `job_${instanceId}`,
  resolved,
  failToPass: { "tests/test_a.py::test_fix": resolved ? "PASSED" : "FAILED" },
  passToPass: { "tests/test_a.py::test_old": "PASSED" },
  detail: { emptyPatch: false, error: null },
});

describe("benchmarks.* without a benchmark store", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("answers 503 with a sentence over REST and tRPC, and keeps serving the rest", async () => {
    const listed = await http(`${server.url}/api/v1/benchmarks`);
    expect(listed.status).toBe(503);
    expect(listed.body.error).toMatchObject({ code: "UNAVAILABLE" });
    expect(listed.body.error.message).toContain("runs without a benchmark store");
    const created = await http(`${server.url}/api/v1/benchmarks`, { body: RUN, token: TOKENS.trainer });
    expect(created.status).toBe(503);
    const trpc = await http(`${server.url}/trpc/benchmarks.finishRun`, {
      body: { runId: RUN.id, status: "completed" },
      token: TOKENS.admin,
    });
    expect(trpc.status).toBe(503);
    expect(trpc.body.error.data.code).toBe("UNAVAILABLE");
    expect((await http(`${server.url}/api/v1/stats`)).status).toBe(200);
  });
});

describe("benchmarks.* on the in-memory store", () => {
  let server: TestServer;
  const api = (path: string) => `${server.url}/api/v1/benchmarks${path}`;

  beforeAll(async () => {
    server = await startTestServer({ benchmarks: new MemoryBenchmarkRunStore() });
  });
  afterAll(() => server.close());

  it("round-trips a run: create (201), record, finish, get, list by model/dataset, page results", async () => {
    const created = await http(api(""), {
      body: { ...RUN, config: { concurrency: 2 }, createdAtMs: 1_000 },
      token: TOKENS.trainer,
    });
    expect(created.status).toBe(201);
    expect(created.body.run).toEqual({
      ...RUN,
      status: "running",
      config: { concurrency: 2 },
      totalCount: 0,
      resolvedCount: 0,
      rewardCount: 0,
      meanReward: null,
      createdAtMs: 1_000,
      finishedAtMs: null,
    });

    const trainer = trpcClient(server.url, TOKENS.trainer);
    const recorded = await trainer.benchmarks.recordResults.mutate({
      runId: RUN.id,
      results: [result("c__c-3", false), result("a__a-1", true), result("b__b-2", true)],
    });
    expect(recorded.run).toMatchObject({ totalCount: 3, resolvedCount: 2, status: "running" });
    // Re-recording an instance replaces its result (a resumed evaluation).
    const rerecorded = await http(api(`/${RUN.id}/results`), {
      body: { results: [{ instanceId: "c__c-3", resolved: true }] },
      token: TOKENS.admin,
    });
    expect(rerecorded.status).toBe(200);
    expect(rerecorded.body.run).toMatchObject({ totalCount: 3, resolvedCount: 3 });

    const finished = await http(api(`/${RUN.id}/finish`), {
      body: { status: "completed", finishedAtMs: 9_000 },
      token: TOKENS.trainer,
    });
    expect(finished.status).toBe(200);
    expect(finished.body.run).toMatchObject({ status: "completed", finishedAtMs: 9_000 });

    const got = await http(api(`/${RUN.id}`));
    expect(got.status).toBe(200);
    expect(got.body.run).toMatchObject({ id: RUN.id, totalCount: 3, resolvedCount: 3, status: "completed" });
    // SWE-bench results carry no reward: no mean reward.
    expect(got.body.run).toMatchObject({ rewardCount: 0, meanReward: null });

    await trainer.benchmarks.createRun.mutate({ ...RUN, id: "other-model", model: "Qwen/Qwen3-4B" });
    const viewer = trpcClient(server.url, TOKENS.viewer);
    expect((await viewer.benchmarks.list.query({})).runs.map((run) => run.id)).toEqual([
      "other-model",
      RUN.id,
    ]);
    expect((await viewer.benchmarks.list.query({ model: RUN.model })).runs.map((run) => run.id)).toEqual([
      RUN.id,
    ]);
    const byQuery = await http(api(`?dataset=swe-mini&model=${encodeURIComponent("Qwen/Qwen3-4B")}&limit=5`));
    expect(byQuery.body.runs.map((run: { id: string }) => run.id)).toEqual(["other-model"]);
    expect((await http(api("?dataset=nope"))).body).toEqual({ runs: [] });

    const first = await http(api(`/${RUN.id}/results?limit=2`));
    expect(first.status).toBe(200);
    expect(first.body.items.map((item: { instanceId: string }) => item.instanceId)).toEqual([
      "a__a-1",
      "b__b-2",
    ]);
    expect(first.body.items[0]).toMatchObject({
      runId: RUN.id,
      jobId: "job_a__a-1",
      failToPass: { "tests/test_a.py::test_fix": "PASSED" },
      detail: { emptyPatch: false, error: null },
    });
    expect(first.body.nextCursor).toBe("b__b-2");
    const second = await viewer.benchmarks.results.query({ runId: RUN.id, limit: 2, cursor: "b__b-2" });
    expect(second.items).toMatchObject([
      { instanceId: "c__c-3", resolved: true, jobId: null, failToPass: null, detail: null },
    ]);
    expect(second.nextCursor).toBeNull();
    const unresolved = await http(api(`/${RUN.id}/results?resolved=false`));
    expect(unresolved.body).toEqual({ items: [], nextCursor: null });
  });

  it("checks the token: 401 without a writer token, 403 for a viewer; reads are open", async () => {
    const none = await http(api(""), { body: { ...RUN, id: "auth-1" } });
    expect(none.status).toBe(401);
    expect(none.body.error.message).toContain("trainer or admin token");
    const viewer = await http(api(""), { body: { ...RUN, id: "auth-1" }, token: TOKENS.viewer });
    expect(viewer.status).toBe(403);
    expect(viewer.body.error.message).toContain("needs the trainer role");
    const record = await http(api("/auth-1/results"), {
      body: { results: [result("a", true)] },
      token: TOKENS.viewer,
    });
    expect(record.status).toBe(403);
    const finish = await http(`${server.url}/trpc/benchmarks.finishRun`, {
      body: { runId: "auth-1", status: "failed" },
    });
    expect(finish.status).toBe(401);
    expect((await http(api(""), { token: "not-a-token" })).status).toBe(401);
    expect((await http(api(""))).status).toBe(200);
    // Nothing was created by the refused calls.
    expect((await http(api("/auth-1"))).status).toBe(404);
  });

  it("409s a duplicate run id, also when two creates race, and names the existing run", async () => {
    const body = { ...RUN, id: "dup-1" };
    expect((await http(api(""), { body, token: TOKENS.trainer })).status).toBe(201);
    const again = await http(api(""), { body: { ...body, model: "x" }, token: TOKENS.admin });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({
      code: "CONFLICT",
      details: { runId: "dup-1", model: RUN.model },
    });
    expect(again.body.error.message).toContain('a benchmark run with id "dup-1" already exists');
    const trainer = trpcClient(server.url, TOKENS.trainer);
    const error = await trainer.benchmarks.createRun.mutate(body).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<never>).data).toMatchObject({ code: "CONFLICT", httpStatus: 409 });

    const raced = await Promise.all(
      Array.from({ length: 4 }, () =>
        http(api(""), { body: { ...RUN, id: "race-1" }, token: TOKENS.trainer }),
      ),
    );
    expect(raced.map((response) => response.status).sort()).toEqual([201, 409, 409, 409]);
  });

  it("404s an unknown run on every procedure that names one", async () => {
    const cases: Array<[string, Parameters<typeof http>[1]]> = [
      [api("/nope"), {}],
      [api("/nope/results"), {}],
      [api("/nope/results"), { body: { results: [result("a", true)] }, token: TOKENS.trainer }],
      [api("/nope/finish"), { body: { status: "completed" }, token: TOKENS.trainer }],
    ];
    for (const [url, init] of cases) {
      const response = await http(url, init);
      expect(response.status, url).toBe(404);
      expect(response.body.error.code).toBe("NOT_FOUND");
      expect(response.body.error.message).toContain('no benchmark run with id "nope"');
    }
  });

  it("400s bad input with a readable message", async () => {
    await http(api(""), { body: { ...RUN, id: "bad-1" }, token: TOKENS.trainer });
    const create: Array<[unknown, string]> = [
      [{ ...RUN, id: "a b" }, "id: a benchmark run id is 1-200 letters"],
      [{ ...RUN, id: "" }, "id: a benchmark run id"],
      [{ ...RUN, model: "" }, "model: a model name may not be empty"],
      [{ id: "x1", dataset: "d" }, "model: expected a model name"],
      [{ ...RUN, id: "x2", status: "done" }, "status: status must be one of running"],
      [{ ...RUN, id: "x3", createdAtMs: -1 }, "createdAtMs"],
      [{ ...RUN, id: "x4", config: [1] }, "config"],
      [{ ...RUN, id: "x5", extra: 1 }, 'unrecognized key: "extra"'],
    ];
    for (const [body, message] of create) {
      const response = await http(api(""), { body, token: TOKENS.trainer });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe("VALIDATION_FAILED");
      expect(response.body.error.message.toLowerCase()).toContain(message.toLowerCase());
    }
    const record: Array<[unknown, string]> = [
      [{ results: [] }, "results: send at least one result"],
      [{ results: [result("a", true), result("a", false)] }, 'instance "a" is listed twice'],
      [{ results: [{ instanceId: "a" }] }, "resolved: expected true or false"],
      [{ results: [{ ...result("a", true), failToPass: { t: 1 } }] }, "failToPass"],
      [{ results: Array.from({ length: 1_001 }, (_, i) => result(`i${i}`, true)) }, "at most 1000 results"],
      [{}, "results"],
    ];
    for (const [body, message] of record) {
      const response = await http(api("/bad-1/results"), { body, token: TOKENS.trainer });
      expect(response.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(response.body.error.message.toLowerCase()).toContain(message.toLowerCase());
    }
    const finish = await http(api("/bad-1/finish"), { body: { status: "running" }, token: TOKENS.trainer });
    expect(finish.status).toBe(400);
    expect(finish.body.error.message).toContain("status must be one of completed, failed, cancelled");
    const noBody = await http(api("/bad-1/finish"), { method: "POST", token: TOKENS.trainer });
    expect(noBody.status).toBe(400);
    expect(noBody.body.error.message).toContain("needs a JSON body");
    const reads: Array<[string, string]> = [
      [api("?limit=0"), "limit"],
      [api("?limit=ten"), "limit"],
      [api("?owner=me"), 'unrecognized key: "owner"'],
      [api("/bad-1/results?cursor=zzz"), 'cursor: "zzz" is not an instance of run "bad-1"'],
      [api("/bad-1/results?resolved=maybe"), "resolved: expected true or false"],
      [api("/a%20b"), "runId: a benchmark run id"],
      [api("/bad-1?x=1"), "takes no query parameters"],
    ];
    for (const [url, message] of reads) {
      const response = await http(url);
      expect(response.status, url).toBe(400);
      expect(response.body.error.message.toLowerCase()).toContain(message.toLowerCase());
    }
    expect((await http(api("/bad-1"), { method: "DELETE", token: TOKENS.admin })).status).toBe(405);
  });

  it("answers random bodies on every benchmark route with a 4xx or success, never a 5xx", async () => {
    const random = createRandom(7);
    const routes: Array<[string, string]> = [
      ["POST", api("")],
      ["POST", api("/fz-1/results")],
      ["POST", api("/fz-1/finish")],
      ["POST", `${server.url}/trpc/benchmarks.createRun`],
      ["POST", `${server.url}/trpc/benchmarks.recordResults`],
    ];
    await http(api(""), { body: { ...RUN, id: "fz-1" }, token: TOKENS.trainer });
    for (let i = 0; i < 300; i += 1) {
      const [method, url] = routes[i % routes.length]!;
      const body =
        random.next() < 0.5
          ? randomValue(random)
          : { ...RUN, id: `fz-${i}`, ...(randomValue(random) as object) };
      const response = await http(url, { method, body, token: TOKENS.trainer });
      expect(response.status, `${url} ${JSON.stringify(body)}`).toBeLessThan(500);
    }
  });

  it("lists every benchmark route in /openapi.json with its role, the 404, 409 and 503", async () => {
    const { body } = await http(`${server.url}/openapi.json`);
    const paths = body.paths;
    expect(paths["/api/v1/benchmarks"].post.operationId).toBe("createBenchmarkRun");
    expect(paths["/api/v1/benchmarks"].post["x-raas-role"]).toBe("trainer");
    expect(Object.keys(paths["/api/v1/benchmarks"].post.responses)).toEqual(
      expect.arrayContaining(["201", "400", "401", "403", "409", "503"]),
    );
    expect(paths["/api/v1/benchmarks"].get.operationId).toBe("listBenchmarkRuns");
    expect(paths["/api/v1/benchmarks"].get.parameters.map((p: { name: string }) => p.name)).toEqual([
      "model",
      "dataset",
      "limit",
    ]);
    expect(paths["/api/v1/benchmarks/{runId}"].get.operationId).toBe("getBenchmarkRun");
    expect(Object.keys(paths["/api/v1/benchmarks/{runId}"].get.responses)).toContain("404");
    expect(paths["/api/v1/benchmarks/{runId}/results"].get.operationId).toBe("listBenchmarkResults");
    expect(paths["/api/v1/benchmarks/{runId}/results"].post.operationId).toBe("recordBenchmarkResults");
    expect(paths["/api/v1/benchmarks/{runId}/finish"].post["x-raas-role"]).toBe("trainer");
    expect(body.components.schemas.CreateBenchmarkRunRequest.required).toEqual(["id", "model"]);
    expect(body.tags.map((tag: { name: string }) => tag.name)).toContain("benchmarks");
  });
});
