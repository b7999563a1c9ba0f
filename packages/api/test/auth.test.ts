import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, sleepJob, startTestServer, type TestServer, TOKENS } from "./helpers/test-server";

describe("auth: bearer tokens and roles", () => {
  let open: TestServer;
  let locked: TestServer;
  let noWriter: TestServer;

  beforeAll(async () => {
    [open, locked, noWriter] = await Promise.all([
      startTestServer(),
      startTestServer({ auth: { requireViewerToken: true } }),
      startTestServer({ auth: { adminToken: undefined, trainerToken: undefined } }),
    ]);
  });
  afterAll(() => Promise.all([open.close(), locked.close(), noWriter.close()]));

  it("401s a mutation without a token and says which header to send (REST and tRPC)", async () => {
    const rest = await http(`${open.url}/api/v1/jobs`, { body: sleepJob() });
    expect(rest.status).toBe(401);
    expect(rest.body.error.code).toBe("UNAUTHORIZED");
    expect(rest.body.error.message).toContain("Authorization: Bearer <token>");
    expect(rest.headers.get("www-authenticate")).toContain("Bearer");

    const trpc = await http(`${open.url}/trpc/jobs.submit`, { body: sleepJob() });
    expect(trpc.status).toBe(401);
    expect(trpc.body.error.data.code).toBe("UNAUTHORIZED");
    expect(trpc.body.error.message).toContain("Authorization: Bearer <token>");
  });

  it("401s a token that matches no role, also on reads", async () => {
    const write = await http(`${open.url}/api/v1/jobs`, { body: sleepJob(), token: "wrong" });
    expect(write.status).toBe(401);
    expect(write.body.error.message).toContain("not valid");
    const read = await http(`${open.url}/api/v1/stats`, { token: "wrong" });
    expect(read.status).toBe(401);
  });

  it("403s a viewer that mutates and a trainer that changes pools", async () => {
    const viewer = await http(`${open.url}/api/v1/jobs`, { body: sleepJob(), token: TOKENS.viewer });
    expect(viewer.status).toBe(403);
    expect(viewer.body.error.code).toBe("FORBIDDEN");
    expect(viewer.body.error.message).toContain("viewer");

    const trainer = await http(`${open.url}/api/v1/stages/concurrency`, {
      body: { stage: "run", concurrency: 3 },
      token: TOKENS.trainer,
    });
    expect(trainer.status).toBe(403);
    const admin = await http(`${open.url}/api/v1/stages/concurrency`, {
      body: { stage: "run", concurrency: 3 },
      token: TOKENS.admin,
    });
    expect(admin.status).toBe(200);
    expect(admin.body).toEqual({ stage: "run", concurrency: 3 });
  });

  it("lets admin do what a trainer may", async () => {
    const submitted = await http(`${open.url}/api/v1/jobs`, { body: sleepJob(), token: TOKENS.admin });
    expect(submitted.status).toBe(201);
  });

  it("leaves reads open by default and locks them with requireViewerToken", async () => {
    expect((await http(`${open.url}/api/v1/stats`)).status).toBe(200);
    expect((await http(`${open.url}/metrics`)).status).toBe(200);

    const denied = await http(`${locked.url}/api/v1/jobs`);
    expect(denied.status).toBe(401);
    expect(denied.body.error.message).toContain("viewer, trainer or admin token");
    expect((await http(`${locked.url}/metrics`)).status).toBe(401);
    expect((await http(`${locked.url}/api/v1/jobs`, { token: TOKENS.viewer })).status).toBe(200);
    expect((await http(`${locked.url}/trpc/system.stats`, { token: TOKENS.viewer })).status).toBe(200);
    // Health stays public so probes need no secret.
    expect((await http(`${locked.url}/health`)).status).toBe(200);
  });

  it("refuses every mutation when no trainer or admin token is configured", async () => {
    const response = await http(`${noWriter.url}/api/v1/jobs`, { body: sleepJob(), token: TOKENS.viewer });
    expect(response.status).toBe(401);
    expect(response.body.error.message).toContain("no trainer or admin token configured");
    expect((await http(`${noWriter.url}/api/v1/stats`)).status).toBe(200);
  });
});
