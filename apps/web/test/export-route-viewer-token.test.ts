// The dashboard's export download (`/trajectories/{jobId}/export`, the route the export link
// fetches) against a real control plane that requires a viewer token for reads
// (RAAS_REQUIRE_VIEWER_TOKEN): without a token, or with one the server does not know, the download
// is refused with the server's sentence; with the viewer token it is the job's export row, the
// same as the server's own REST export and its batch JSON Lines. The Playwright suite's servers
// leave reads open, and a third deployment (server, simulator, dashboard) only for this would
// cost every e2e run minutes, so the route handler runs here in-process instead of behind `next start`.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createControlPlaneHandler } from "@raas/api";
import {
  createSleepHandler,
  HandlerRegistry,
  MemoryJobQueue,
  MemoryJobStore,
  RolloutEngine,
} from "@raas/engine";
import type { TTurn } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const TOKENS = { admin: "e-admin", trainer: "e-trainer", viewer: "e-viewer" } as const;

/** A real engine (memory store and queue, sleep handler) behind the real control plane, reads guarded. */
async function startGuardedServer(store: MemoryJobStore) {
  const engine = new RolloutEngine({
    store,
    queue: new MemoryJobQueue(),
    handlers: new HandlerRegistry().register(createSleepHandler()),
  });
  await engine.start();
  const handler = createControlPlaneHandler({
    engine,
    auth: {
      adminToken: TOKENS.admin,
      trainerToken: TOKENS.trainer,
      viewerToken: TOKENS.viewer,
      requireViewerToken: true,
    },
    collectProcessMetrics: false,
  });
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    engine,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      handler.close();
      await engine.stop({ graceMs: 50 });
    },
  };
}

const get = (url: string, token?: string) =>
  fetch(url, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });

function turn(jobId: string, index: number, promptIds: number[], responseIds: number[]): TTurn {
  return {
    jobId,
    index,
    promptIds,
    responseIds,
    logprobs: responseIds.map(() => -0.25),
    backendId: "sim-0",
    weightVersion: "w1",
    cachedPromptTokens: 0,
    latencyMs: 2,
    finishReason: "stop",
    text: null,
    createdAtMs: 0,
  };
}

describe("the dashboard's export download from a server that requires a viewer token", () => {
  const store = new MemoryJobStore();
  let server: Awaited<ReturnType<typeof startGuardedServer>>;
  let jobId = "";
  let download: (jobId: string, token?: string) => Promise<Response>;

  beforeAll(async () => {
    server = await startGuardedServer(store);
    const { job } = await server.engine.submitJob({
      kind: "sleep",
      payload: { initMs: 1, runMs: 1, evalMs: 1 },
      batchId: "viewer-export",
    });
    jobId = job.id;
    await server.engine.waitForJobs([jobId], { timeoutMs: 20_000 });
    await store.appendTurns([turn(jobId, 0, [1, 2], [3, 4]), turn(jobId, 1, [1, 2, 3, 4, 5], [6])]);
    // The route reads the server's URL from the dashboard's environment on its first request.
    process.env.RAAS_SERVER_URL = server.url;
    const { GET } = await import("../src/app/trajectories/[jobId]/export/route");
    download = (id, token) =>
      GET(
        new Request(`http://127.0.0.1:3000/trajectories/${id}/export`, {
          headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
        }),
        { params: Promise.resolve({ jobId: id }) },
      );
  }, 60_000);

  afterAll(async () => {
    await server?.close();
  });

  it("refuses a download without a token or with an unknown one, saying why", async () => {
    const anonymous = await download(jobId);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).toContain("viewer, trainer or admin token");
    const unknown = await download(jobId, "not-a-token");
    expect(unknown.status).toBe(401);
    expect(await unknown.text()).toContain("not valid");
  });

  it("downloads the job's export row with the viewer token, as the server's REST export and batch stream give it", async () => {
    const response = await download(jobId, TOKENS.viewer);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/x-ndjson");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${jobId}.jsonl"`);
    const lines = (await response.text()).split("\n").filter((line) => line !== "");
    expect(lines).toHaveLength(1);
    const row = JSON.parse(lines[0] as string) as { jobId: string; tokens: number[]; lossMask: number[] };
    expect(row).toMatchObject({ jobId, tokens: [1, 2, 3, 4, 5, 6], lossMask: [0, 0, 1, 1, 0, 1] });

    expect((await get(`${server.url}/api/v1/jobs/${jobId}/export`)).status).toBe(401);
    const rest = await get(`${server.url}/api/v1/jobs/${jobId}/export`, TOKENS.viewer);
    expect(rest.status).toBe(200);
    expect(await rest.json()).toEqual(row);
    const batch = await get(`${server.url}/api/v1/batches/viewer-export/trajectories.jsonl`, TOKENS.viewer);
    expect(batch.status).toBe(200);
    const batchRows = (await batch.text()).trim().split("\n");
    expect(batchRows.map((line) => JSON.parse(line) as unknown)).toEqual([row]);
  });

  it("still answers 400 for a malformed job id before asking the server", async () => {
    const response = await download("bad id!", TOKENS.viewer);
    expect(response.status).toBe(400);
  });
});
