import { ZCreateBenchmarkRunRequest, ZCreateBenchmarkRunResponse } from "../routers/benchmarks/create-run";
import { ZFinishBenchmarkRunRequest, ZFinishBenchmarkRunResponse } from "../routers/benchmarks/finish-run";
import { ZGetBenchmarkRunRequest, ZGetBenchmarkRunResponse } from "../routers/benchmarks/get";
import { ZListBenchmarkRunsRequest, ZListBenchmarkRunsResponse } from "../routers/benchmarks/list";
import {
  ZRecordBenchmarkResultsRequest,
  ZRecordBenchmarkResultsResponse,
} from "../routers/benchmarks/record-results";
import { ZBenchmarkResultsRequest, ZBenchmarkResultsResponse } from "../routers/benchmarks/results";
import { defineRoute, type RestRoute } from "./rest-route.types";

/** REST routes of the `benchmarks.*` procedures (503 when the server has no benchmark store). */
export const BENCHMARK_ROUTES: readonly RestRoute[] = [
  defineRoute({
    method: "POST",
    path: "/api/v1/benchmarks",
    operationId: "createBenchmarkRun",
    summary:
      "Create a benchmark run (model, dataset, split, config) with no results yet: 201, or 409 when the id is taken (trainer).",
    tag: "benchmarks",
    access: "trainer",
    inputFrom: "body",
    request: ZCreateBenchmarkRunRequest,
    response: ZCreateBenchmarkRunResponse,
    successStatus: 201,
    mayBeUnavailable: true,
    mayConflict: true,
    call: (caller, input) => caller.benchmarks.createRun(input),
  }),
  defineRoute({
    method: "GET",
    path: "/api/v1/benchmarks",
    operationId: "listBenchmarkRuns",
    summary: "Benchmark runs newest first, optionally of one model and/or dataset.",
    tag: "benchmarks",
    access: "viewer",
    inputFrom: "query",
    request: ZListBenchmarkRunsRequest,
    response: ZListBenchmarkRunsResponse,
    successStatus: 200,
    mayBeUnavailable: true,
    call: (caller, input) => caller.benchmarks.list(input),
  }),
  defineRoute({
    method: "GET",
    path: "/api/v1/benchmarks/{runId}",
    operationId: "getBenchmarkRun",
    summary: "One benchmark run with its total and resolved counts.",
    tag: "benchmarks",
    access: "viewer",
    inputFrom: "none",
    request: ZGetBenchmarkRunRequest,
    response: ZGetBenchmarkRunResponse,
    successStatus: 200,
    mayBeUnavailable: true,
    call: (caller, input) => caller.benchmarks.get(input),
  }),
  defineRoute({
    method: "POST",
    path: "/api/v1/benchmarks/{runId}/results",
    operationId: "recordBenchmarkResults",
    summary:
      "Store per-instance results of a run (at most 1000 per call; an instance's earlier result is replaced) (trainer).",
    tag: "benchmarks",
    access: "trainer",
    inputFrom: "body",
    request: ZRecordBenchmarkResultsRequest,
    response: ZRecordBenchmarkResultsResponse,
    successStatus: 200,
    mayBeUnavailable: true,
    call: (caller, input) => caller.benchmarks.recordResults(input),
  }),
  defineRoute({
    method: "GET",
    path: "/api/v1/benchmarks/{runId}/results",
    operationId: "listBenchmarkResults",
    summary:
      "Per-instance results of a run by instance id; pass nextCursor back as cursor for the next page.",
    tag: "benchmarks",
    access: "viewer",
    inputFrom: "query",
    request: ZBenchmarkResultsRequest,
    response: ZBenchmarkResultsResponse,
    successStatus: 200,
    mayBeUnavailable: true,
    call: (caller, input) => caller.benchmarks.results(input),
  }),
  defineRoute({
    method: "POST",
    path: "/api/v1/benchmarks/{runId}/finish",
    operationId: "finishBenchmarkRun",
    summary: "Mark a run completed, failed or cancelled (trainer).",
    tag: "benchmarks",
    access: "trainer",
    inputFrom: "body",
    request: ZFinishBenchmarkRunRequest,
    response: ZFinishBenchmarkRunResponse,
    successStatus: 200,
    mayBeUnavailable: true,
    call: (caller, input) => caller.benchmarks.finishRun(input),
  }),
];
