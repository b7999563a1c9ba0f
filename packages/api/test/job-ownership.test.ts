// Jobs, groups and batches belong to the token that submitted them: another trainer's token cannot
// cancel them (by job, group or batch), add jobs to that group or batch, or take over a job key —
// a 403 that names the owner's token and says an admin token would do; an admin token may cancel.
// With reads requiring tokens, one trainer cannot read another's exports or trajectories, while a
// viewer and an admin read everything; with reads open (the default) everyone reads.
import { afterEach, describe, expect, it } from "vitest";
import { http, sleepJob, startTestServer, type TestServer } from "./helpers/test-server";

const TOKENS = { admin: "own-admin", alice: "own-alice", bob: "own-bob", viewer: "own-viewer" } as const;
type Who = keyof typeof TOKENS;

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function start(requireViewerToken: boolean): Promise<TestServer> {
  server = await startTestServer({
    auth: {
      adminToken: TOKENS.admin,
      trainerToken: undefined,
      trainerTokens: [TOKENS.alice, TOKENS.bob],
      viewerToken: TOKENS.viewer,
      requireViewerToken,
    },
  });
  return server;
}

const call = (who: Who, path: string, body?: unknown) =>
  http(`${(server as TestServer).url}${path}`, { token: TOKENS[who], ...(body !== undefined && { body }) });

async function expectForbidden(who: Who, path: string, body?: unknown): Promise<string> {
  const denied = await call(who, path, body);
  expect(denied.status, denied.text).toBe(403);
  expect(denied.body.error.code).toBe("FORBIDDEN");
  expect(denied.body.error.message).toMatch(/another trainer's token \(token:[0-9a-f]{16}\)/);
  return denied.body.error.message as string;
}

describe("ownership of jobs, groups and batches", () => {
  it("lets only the submitting token or an admin cancel; refuses additions to another's batch or group", async () => {
    await start(false);
    const long = { initMs: 5, runMs: 60_000, evalMs: 5 };
    const submitted = await call("alice", "/api/v1/jobs/batch", {
      jobs: [
        sleepJob(long, { groupId: "alice-g1", batchId: "alice-b1", jobKey: "alice-k1" }),
        sleepJob(long, { groupId: "alice-g1", batchId: "alice-b1" }),
      ],
    });
    expect(submitted.status, submitted.text).toBe(200);
    const ids: string[] = submitted.body.results.map((r: { job: { id: string } }) => r.job.id);
    const owner: string = submitted.body.results[0].job.ownerId;
    expect(owner).toMatch(/^token:[0-9a-f]{16}$/);
    expect(JSON.stringify(submitted.body)).not.toContain(TOKENS.alice);

    for (const body of [{ batchId: "alice-b1" }, { groupId: "alice-g1" }, { jobId: ids[0] }]) {
      const message = await expectForbidden("bob", "/api/v1/jobs/cancel", body);
      expect(message).toContain(owner);
      expect(message).toContain("admin token");
    }
    await expectForbidden("bob", "/api/v1/jobs", sleepJob({}, { batchId: "alice-b1" }));
    await expectForbidden("bob", "/api/v1/jobs/batch", { jobs: [sleepJob({}, { groupId: "alice-g1" })] });
    const key = await call(
      "bob",
      "/api/v1/jobs",
      sleepJob(long, { groupId: "alice-g1", jobKey: "alice-k1" }),
    );
    expect(key.status).toBe(403);
    expect(
      (await call("bob", "/api/v1/jobs", sleepJob(long, { jobKey: "alice-k1", groupId: "bob-g" }))).body.error
        .message,
    ).toMatch(/job key "alice-k1" belongs to another trainer's token/);
    // Nothing of Alice's moved and nothing of Bob's joined her batch.
    const listed = await call("alice", "/api/v1/jobs?batchId=alice-b1");
    expect(listed.body.items.map((job: { id: string }) => job.id).sort()).toEqual([...ids].sort());
    expect(listed.body.items.every((job: { status: string }) => job.status !== "failed")).toBe(true);

    // Her own token may cancel one; an admin token the rest of the batch.
    expect((await call("alice", "/api/v1/jobs/cancel", { jobId: ids[0] })).body.cancelled).toEqual([ids[0]]);
    expect((await call("admin", "/api/v1/jobs/cancel", { batchId: "alice-b1" })).body.cancelled).toEqual([
      ids[1],
    ]);
  });

  it("keeps exports and trajectories of one trainer from another when reads need tokens", async () => {
    const running = await start(true);
    const { job } = (await call("alice", "/api/v1/jobs", sleepJob({}, { batchId: "alice-b2" }))).body;
    await running.engine.waitForJobs([job.id], { timeoutMs: 20_000 });
    const paths = [
      `/api/v1/jobs/${job.id}/export`,
      `/api/v1/jobs/${job.id}/trajectory`,
      "/api/v1/batches/alice-b2/trajectories",
      "/api/v1/batches/alice-b2/trajectories.jsonl",
    ];
    for (const path of paths) {
      expect(await expectForbidden("bob", path)).toContain("tokens for reads");
      for (const who of ["alice", "viewer", "admin"] as const)
        expect((await call(who, path)).status).toBe(200);
    }
  });

  it("lets any token read when reads are open (the default)", async () => {
    const running = await start(false);
    const { job } = (await call("alice", "/api/v1/jobs", sleepJob({}, { batchId: "alice-b3" }))).body;
    expect(job).toMatchObject({
      ownerId: expect.stringMatching(/^token:[0-9a-f]{16}$/),
      policyId: "default",
    });
    await running.engine.waitForJobs([job.id], { timeoutMs: 20_000 });
    expect((await call("bob", `/api/v1/jobs/${job.id}/export`)).status).toBe(200);
    expect((await call("bob", "/api/v1/batches/alice-b3/trajectories")).status).toBe(200);
  });
});
