import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, sleepJob, startTestServer, type TestServer, TOKENS } from "./helpers/test-server";

describe("REST routes against a running server", () => {
  let server: TestServer;
  const api = (path: string) => `${server.url}/api/v1${path}`;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("submits (201, then 200 for the same key), gets, waits and reads the trajectory", async () => {
    const submitted = await http(api("/jobs"), {
      body: sleepJob({}, { jobKey: "rest-1" }),
      token: TOKENS.trainer,
    });
    expect(submitted.status).toBe(201);
    expect(submitted.body.created).toBe(true);
    const id = submitted.body.job.id as string;
    const again = await http(api("/jobs"), {
      body: sleepJob({}, { jobKey: "rest-1" }),
      token: TOKENS.trainer,
    });
    expect(again.status).toBe(200);
    expect(again.body.job.id).toBe(id);

    const waited = await http(api("/jobs/wait"), {
      body: { ids: [id], timeoutMs: 10_000 },
      token: TOKENS.trainer,
    });
    expect(waited.status).toBe(200);
    expect(waited.body.done).toBe(true);

    const got = await http(api(`/jobs/${id}`));
    expect(got.status).toBe(200);
    expect(got.body.status).toBe("completed");
    expect(got.body.reward).toBe(1);

    const trajectory = await http(api(`/jobs/${id}/trajectory`));
    expect(trajectory.status).toBe(200);
    expect(trajectory.body).toEqual({ turns: [], toolCalls: [] });
  });

  it("submits a batch and lists it with query-string filters coerced to numbers", async () => {
    const jobs = Array.from({ length: 4 }, () => sleepJob({}, { batchId: "rest-batch" }));
    const batch = await http(api("/jobs/batch"), { body: { jobs }, token: TOKENS.trainer });
    expect(batch.status).toBe(200);
    expect(batch.body.results).toHaveLength(4);

    const page = await http(api("/jobs?batchId=rest-batch&limit=2"));
    expect(page.status).toBe(200);
    expect(page.body.items).toHaveLength(2);
    const rest = await http(api(`/jobs?batchId=rest-batch&limit=10&cursor=${page.body.nextCursor}`));
    expect(rest.body.items).toHaveLength(2);
    expect(rest.body.nextCursor).toBeNull();

    const bad = await http(api("/jobs?limit=lots"));
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe("limit: expected number, received string");
  });

  it("cancels by job id and reports the cancelled ids", async () => {
    const submitted = await http(api("/jobs"), { body: sleepJob({ initMs: 30_000 }), token: TOKENS.trainer });
    const cancelled = await http(api("/jobs/cancel"), {
      body: { jobId: submitted.body.job.id },
      token: TOKENS.trainer,
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.cancelled).toEqual([submitted.body.job.id]);
    const neither = await http(api("/jobs/cancel"), { body: {}, token: TOKENS.trainer });
    expect(neither.status).toBe(400);
    expect(neither.body.error.message).toBe("give exactly one of jobId, groupId or batchId");
  });

  it("serves stats and health", async () => {
    const stats = await http(api("/stats"));
    expect(stats.status).toBe(200);
    expect(stats.body.stages.init.concurrency).toBe(64);
    const health = await http(api("/health"));
    expect(health.body).toMatchObject({ status: "ok", handlerKinds: ["sleep"] });
    const rootHealth = await http(`${server.url}/health`);
    expect(rootHealth.body.status).toBe("ok");
  });

  it("publishes an OpenAPI 3.1 document listing every route with resolvable schemas", async () => {
    const { status, body: doc } = await http(`${server.url}/openapi.json`);
    expect(status).toBe(200);
    expect(doc.openapi).toBe("3.1.0");
    const operations = Object.entries(
      doc.paths as Record<string, Record<string, { operationId: string }>>,
    ).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => `${method.toUpperCase()} ${path} ${op.operationId}`),
    );
    expect(operations.sort()).toEqual(
      [
        "GET /api/v1/health getHealth",
        "GET /api/v1/jobs listJobs",
        "GET /api/v1/jobs/{id} getJob",
        "GET /api/v1/jobs/{jobId}/trajectory getTrajectory",
        "GET /api/v1/jobs/{jobId}/export exportTrajectory",
        "GET /api/v1/jobs/{jobId}/gateway-calls listGatewayCalls",
        "GET /api/v1/jobs/{jobId}/gateway-traces getGatewayTraces",
        "GET /api/v1/batches/{batchId}/trajectories exportBatchTrajectories",
        "GET /api/v1/batches/{batchId}/trajectories.jsonl streamBatchTrajectories",
        "GET /api/v1/sandboxes/events listSandboxEvents",
        "GET /api/v1/sandboxes/summary getSandboxSummary",
        "GET /api/v1/sandboxes/{id} getSandbox",
        "GET /api/v1/stats getStats",
        "POST /api/v1/jobs submitJob",
        "POST /api/v1/jobs/batch submitJobs",
        "POST /api/v1/jobs/cancel cancelJobs",
        "POST /api/v1/jobs/wait waitForJobs",
        "POST /api/v1/stages/concurrency setConcurrency",
        "GET /api/v1/whoami whoami",
        "GET /api/v1/backends listBackends",
        "POST /api/v1/backends registerBackend",
        "POST /api/v1/backends/{id}/drain drainBackend",
        "POST /api/v1/backends/{id}/resume resumeBackend",
        "POST /api/v1/backends/{id}/weight-version setBackendWeightVersion",
        "DELETE /api/v1/backends/{id} removeBackend",
        "POST /api/v1/benchmarks createBenchmarkRun",
        "GET /api/v1/benchmarks listBenchmarkRuns",
        "GET /api/v1/benchmarks/{runId} getBenchmarkRun",
        "POST /api/v1/benchmarks/{runId}/results recordBenchmarkResults",
        "GET /api/v1/benchmarks/{runId}/results listBenchmarkResults",
        "POST /api/v1/benchmarks/{runId}/finish finishBenchmarkRun",
        "POST /api/v1/environments registerEnvironment",
        "GET /api/v1/environments listEnvironments",
        "GET /api/v1/environments/{name} getEnvironment",
        "POST /api/v1/environments/{name}/oracle recordEnvironmentOracle",
        "GET /api/v1/workers listWorkers",
        "POST /api/v1/workers/{id}/drain drainWorker",
        "POST /api/v1/workers/{id}/resume resumeWorker",
        "POST /api/v1/images/prefetch prefetchImages",
        "GET /api/v1/images/prefetch/{requestId} getImagePrefetch",
        "POST /api/v1/runs createRun",
        "POST /api/v1/runs/{runId}/archive archiveRun",
        "GET /api/v1/runs listRuns",
        "GET /api/v1/runs/{runId} getRun",
        "POST /api/v1/runs/{runId}/finish finishRun",
        "GET /api/v1/runs/{runId}/steps listSteps",
        "GET /api/v1/runs/{runId}/curriculum getRunCurriculum",
        "POST /api/v1/steps createStep",
        "GET /api/v1/steps/{stepId} getStep",
        "GET /api/v1/steps/{stepId}/groups listStepGroups",
        "GET /api/v1/steps/{stepId}/next nextStepGroups",
        "GET /api/v1/steps/{stepId}/stream streamStepGroups",
        "POST /api/v1/steps/{stepId}/cancel cancelStep",
        "GET /api/v1/policies listPolicies",
        "GET /api/v1/policy getPolicy",
        "POST /api/v1/policy/weight-version setPolicyWeightVersion",
        "POST /api/v1/policy/pause pausePolicy",
        "POST /api/v1/policy/resume resumePolicy",
        "GET /api/v1/datasets listDatasets",
        "POST /api/v1/tokens/decode decodeTokens",
      ].sort(),
    );
    // Every $ref resolves, every operation documents a success and an error response.
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map(
      (m) => m[1]!,
    );
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) expect(doc.components.schemas[ref], ref).toBeDefined();
    for (const methods of Object.values(doc.paths as Record<string, Record<string, { responses: object }>>)) {
      for (const op of Object.values(methods)) {
        expect(Object.keys(op.responses)).toContain("400");
        expect(Object.keys(op.responses).some((code) => code.startsWith("2"))).toBe(true);
      }
    }
    // One variant per registered handler kind, discriminated by `kind`.
    expect(doc.components.schemas.SubmitJobRequest.discriminator.propertyName).toBe("kind");
    const submit = doc.components.schemas.SubmitSleepJobRequest;
    expect(submit.required).toEqual(["kind"]);
    expect(submit.properties.kind.const).toBe("sleep");
    expect(submit.properties.payload.$ref).toBe("#/components/schemas/SleepPayload");
    expect(submit.properties.priority.type).toBe("integer");
    const list = doc.paths["/api/v1/jobs"].get.parameters.map(
      (p: { name: string; in: string }) => `${p.in}:${p.name}`,
    );
    expect(list).toContain("query:limit");
    expect(list).toContain("query:status");
  });
});
