// The training export over tRPC, REST and the JSON Lines stream, against a running server whose
// engine stores turns in a real MemoryJobStore (the sleep handler records none; the test adds them).
import { MemoryJobStore } from "@raas/engine";
import type { TTrajectoryExport, TTurn } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, sleepJob, startTestServer, type TestServer, TOKENS, trpcClient } from "./helpers/test-server";

function turn(jobId: string, index: number, promptIds: number[], responseIds: number[]): TTurn {
  return {
    jobId,
    index,
    promptIds,
    responseIds,
    logprobs: responseIds.map(() => -0.5),
    backendId: "sim-0",
    weightVersion: `w${index}`,
    cachedPromptTokens: 0,
    latencyMs: 2,
    finishReason: "stop",
    text: null,
    createdAtMs: 0,
  };
}

/** Two exact turns: prompt [1 2] → [3 4], observation [5] → [6]. */
const exactTurns = (jobId: string) => [turn(jobId, 0, [1, 2], [3, 4]), turn(jobId, 1, [1, 2, 3, 4, 5], [6])];

describe("trajectory export over the API", () => {
  let server: TestServer;
  const store = new MemoryJobStore();
  const api = (path: string) => `${server.url}/api/v1${path}`;
  let batchIds: string[] = [];
  let driftId = "";

  beforeAll(async () => {
    server = await startTestServer({ store });
    const results = await server.engine.submitJobs(
      Array.from({ length: 19 }, (_, i) =>
        sleepJob({ initMs: 1, runMs: 1, evalMs: 1 }, { batchId: "exp-b", metadata: { i } }),
      ),
    );
    batchIds = results.map((r) => r.job.id);
    const drift = await server.engine.submitJob(
      sleepJob({ initMs: 1, runMs: 1, evalMs: 1 }, { batchId: "exp-b" }),
    );
    driftId = drift.job.id;
    await server.engine.waitForJobs([...batchIds, driftId], { timeoutMs: 20_000 });
    await store.appendTurns(batchIds.flatMap(exactTurns));
    await store.appendTurns([turn(driftId, 0, [1, 2], [3]), turn(driftId, 1, [1, 2, 9], [6])]);
  }, 30_000);
  afterAll(() => server.close());

  it("exports one job over tRPC and REST alike, token-exact, with mask and logprobs aligned", async () => {
    const id = batchIds[0]!;
    const viaTrpc = await trpcClient(server.url, TOKENS.viewer).jobs.export.query({ jobId: id });
    expect(viaTrpc).toMatchObject({
      jobId: id,
      batchId: "exp-b",
      status: "completed",
      reward: 1,
      trainable: true,
      tokens: [1, 2, 3, 4, 5, 6],
      lossMask: [0, 0, 1, 1, 0, 1],
      logprobs: [null, null, -0.5, -0.5, null, -0.5],
      promptLength: 2,
      tokenExact: true,
      metadata: { i: 0 },
    });
    expect(viaTrpc.turns.map((span) => [span.start, span.end, span.weightVersion])).toEqual([
      [2, 4, "w0"],
      [5, 6, "w1"],
    ]);
    const viaRest = await http(api(`/jobs/${id}/export`));
    expect(viaRest.status).toBe(200);
    expect(viaRest.body).toEqual(viaTrpc);
    // The fixtures' versions (`w0`, `w1`) are free-form, not policy numbers: no integer version.
    expect(viaTrpc.versions).toEqual([-1, -1, -1, -1, -1, -1]);
    const drifted = await http(api(`/jobs/${driftId}/export`));
    expect(drifted.body).toMatchObject({
      tokenExact: false,
      tokens: [1, 2, 3],
      tokenBreak: { turnIndex: 1, position: 2 },
    });
  });

  it("answers 404 for an unknown job or batch and 400 for a bad id or page size", async () => {
    const unknownJob = await http(api("/jobs/job_nope/export"));
    expect(unknownJob.status).toBe(404);
    expect(unknownJob.body.error.message).toMatch(/no job with id "job_nope"/);
    expect((await http(api("/jobs/a%00b/export"))).status).toBe(400);
    const unknownBatch = await http(api("/batches/no-batch/trajectories"));
    expect(unknownBatch.status).toBe(404);
    expect(unknownBatch.body.error.message).toMatch(/no job in batch "no-batch"/);
    expect((await http(api("/batches/exp-b/trajectories?limit=0"))).status).toBe(400);
    expect((await http(api("/batches/exp-b/trajectories?limit=101"))).status).toBe(400);
    const jsonl404 = await http(api("/batches/no-batch/trajectories.jsonl"));
    expect(jsonl404.status).toBe(404);
    expect(jsonl404.headers.get("content-type")).toMatch(/application\/json/);
    expect((await http(api("/batches/exp-b/trajectories.jsonl?limit=3"))).status).toBe(400);
    expect((await http(api("/batches/%E0%A4%A/trajectories.jsonl"))).status).toBe(400);
    const post = await http(api("/batches/exp-b/trajectories.jsonl"), { body: {}, token: TOKENS.admin });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET");
  });

  it("pages a batch over tRPC and REST with the cursor, every job exactly once", async () => {
    const client = trpcClient(server.url, TOKENS.viewer);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.jobs.exportBatch.query({
        batchId: "exp-b",
        limit: 6,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.items.map((row) => row.jobId));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen.sort()).toEqual([...batchIds, driftId].sort());
    const first = await http(api("/batches/exp-b/trajectories?limit=15"));
    expect(first.body.items).toHaveLength(15);
    const rest = await http(api(`/batches/exp-b/trajectories?cursor=${first.body.nextCursor}`));
    expect(rest.body.items).toHaveLength(5);
    expect(rest.body.nextCursor).toBeNull();
  });

  it("streams a batch larger than one store page as JSON Lines, one export row per line", async () => {
    const response = await fetch(api("/batches/exp-b/trajectories.jsonl"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    const text = await response.text();
    expect(text.endsWith("\n")).toBe(true);
    const rows = text
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as TTrajectoryExport);
    expect(rows.map((row) => row.jobId).sort()).toEqual([...batchIds, driftId].sort());
    for (const row of rows) {
      expect(row).toEqual((await http(api(`/jobs/${row.jobId}/export`))).body);
    }
    expect(rows.filter((row) => !row.tokenExact).map((row) => row.jobId)).toEqual([driftId]);
  });

  it("documents the three export routes and the token-in/token-out property in /openapi.json", async () => {
    const { body: doc } = await http(`${server.url}/openapi.json`);
    const one = doc.paths["/api/v1/jobs/{jobId}/export"].get;
    const page = doc.paths["/api/v1/batches/{batchId}/trajectories"].get;
    const stream = doc.paths["/api/v1/batches/{batchId}/trajectories.jsonl"].get;
    for (const operation of [one, page, stream]) {
      expect(operation.description).toMatch(
        /Token-in\/token-out: .*prompt ids are the previous turn's prompt ids followed by its response ids/,
      );
      expect(operation.responses["404"]).toBeDefined();
    }
    expect(one.operationId).toBe("exportTrajectory");
    expect(stream.responses["200"].content["application/x-ndjson"].schema).toEqual({
      $ref: "#/components/schemas/TrajectoryExport",
    });
    const row = doc.components.schemas.TrajectoryExport;
    for (const field of [
      "tokens",
      "lossMask",
      "logprobs",
      "versions",
      "tokenExact",
      "tokenBreak",
      "turns",
      "reward",
      "trainable",
    ]) {
      expect(row.properties[field].description ?? row.properties[field].anyOf, field).toBeTruthy();
    }
    expect(row.properties.logprobs.description).toMatch(/null where it is 0/);
    expect(row.required).toContain("versions");
    expect(row.properties.versions).toMatchObject({
      type: "array",
      items: { type: "integer", minimum: -1 },
      description: expect.stringMatching(/-1 where `lossMask` is 0/),
    });
  });

  it("exports the store-time token-break count to Prometheus", async () => {
    const { text } = await http(`${server.url}/metrics`);
    expect(text).toMatch(/^raas_trajectory_token_breaks 0$/m);
  });

  it("needs a reader's token where reads need one", async () => {
    const guarded = await startTestServer({ auth: { requireViewerToken: true } });
    try {
      const anonymous = await http(`${guarded.url}/api/v1/batches/b/trajectories.jsonl`);
      expect(anonymous.status).toBe(401);
      const withToken = await http(`${guarded.url}/api/v1/batches/b/trajectories.jsonl`, {
        token: TOKENS.viewer,
      });
      expect(withToken.status).toBe(404);
    } finally {
      await guarded.close();
    }
  });

  it("exports per-step rewards aligned to turns and spans, over REST and JSON Lines", async () => {
    const id = batchIds[1]!;
    await store.updateJobs([{ id, turnRewards: [{ turn: 1, reward: 0.5, label: "found it" }] }]);
    await store.appendToolCalls([
      {
        jobId: id,
        turnIndex: 0,
        index: 0,
        name: "query",
        arguments: {},
        output: "2 rows",
        exitCode: null,
        durationMs: 1,
        isError: false,
        reward: 0.25,
        createdAtMs: 0,
      },
    ]);
    const viaRest = await http(api(`/jobs/${id}/export`));
    expect(viaRest.status).toBe(200);
    const row = viaRest.body as TTrajectoryExport;
    expect(row.reward).toBe(1);
    expect(row.turnRewards).toEqual([
      { turn: 0, reward: 0.25, source: "tool", label: "query", toolCallIndex: 0, start: 2, end: 4 },
      { turn: 1, reward: 0.5, source: "verifier", label: "found it", toolCallIndex: null, start: 5, end: 6 },
    ]);
    expect(row.tokens.slice(5, 6)).toEqual([6]);
    const job = await http(api(`/jobs/${id}`));
    expect((job.body as { turnRewards?: unknown }).turnRewards).toEqual([
      { turn: 1, reward: 0.5, label: "found it" },
    ]);
    const lines = (await (await fetch(api("/batches/exp-b/trajectories.jsonl"))).text())
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as TTrajectoryExport);
    expect(lines.find((r) => r.jobId === id)?.turnRewards).toEqual(row.turnRewards);
    // A job without any (every other one here, as rows stored before they were kept) exports none.
    expect(lines.filter((r) => r.jobId !== id).every((r) => r.turnRewards.length === 0)).toBe(true);
  });

  it("exports integer policy versions per token across a weight sync, over tRPC, REST and JSON Lines", async () => {
    const { job } = await server.engine.submitJob(
      sleepJob({ initMs: 1, runMs: 1, evalMs: 1 }, { batchId: "exp-versions" }),
    );
    await server.engine.waitForJobs([job.id], { timeoutMs: 20_000 });
    // Prompt [1 2] → [3 4] under version 6; tool result [5] → [6 7 8], stopped by a weight sync
    // after [6] and continued under version 7; tool result [9] → [10] under version 7.
    await store.appendTurns([
      { ...turn(job.id, 0, [1, 2], [3, 4]), weightVersion: "6" },
      {
        ...turn(job.id, 1, [1, 2, 3, 4, 5], [6, 7, 8]),
        weightVersion: "7",
        weightVersionSpans: [
          { start: 0, end: 1, weightVersion: "6" },
          { start: 1, end: 3, weightVersion: "7" },
        ],
      },
      { ...turn(job.id, 2, [1, 2, 3, 4, 5, 6, 7, 8, 9], [10]), weightVersion: "7" },
    ]);
    const viaTrpc = await trpcClient(server.url, TOKENS.viewer).jobs.export.query({ jobId: job.id });
    expect(viaTrpc.tokens).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(viaTrpc.lossMask).toEqual([0, 0, 1, 1, 0, 1, 1, 1, 0, 1]);
    expect(viaTrpc.versions).toEqual([-1, -1, 6, 6, -1, 6, 7, 7, -1, 7]);
    expect(viaTrpc.turns[1]?.weightVersionSpans).toEqual([
      { start: 5, end: 6, weightVersion: "6" },
      { start: 6, end: 8, weightVersion: "7" },
    ]);
    expect((await http(api(`/jobs/${job.id}/export`))).body).toEqual(viaTrpc);
    const line = (await (await fetch(api("/batches/exp-versions/trajectories.jsonl"))).text()).trim();
    expect((JSON.parse(line) as TTrajectoryExport).versions).toEqual(viaTrpc.versions);
  });
});
