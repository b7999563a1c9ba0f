// The `backends.*` procedures' surface (auth, validation, REST/OpenAPI, no pool) and `system.whoami`.
// The flows against a real inference pool and simulator run in apps/server/test/backends.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, startTestServer, type TestServer, TOKENS, trpcClient } from "./helpers/test-server";

describe("backends.* without an inference pool", () => {
  let server: TestServer;
  const api = (path: string) => `${server.url}/api/v1${path}`;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("answers 503 with a sentence over REST and tRPC, never a crash", async () => {
    const rest = await http(api("/backends"));
    expect(rest.status).toBe(503);
    expect(rest.body.error.code).toBe("UNAVAILABLE");
    expect(rest.body.error.message).toContain("runs without an inference pool");

    const registered = await http(api("/backends"), {
      body: { baseUrl: "http://127.0.0.1:9" },
      token: TOKENS.admin,
    });
    expect(registered.status).toBe(503);
    const trpc = await http(`${server.url}/trpc/backends.drain`, { body: { id: "b1" }, token: TOKENS.admin });
    expect(trpc.status).toBe(503);
    expect(trpc.body.error.data.code).toBe("UNAVAILABLE");
    // The server keeps serving everything else.
    expect((await http(api("/stats"))).status).toBe(200);
  });

  it("checks the token before anything else: 401 without, 403 for trainer and viewer", async () => {
    const body = { baseUrl: "http://127.0.0.1:9" };
    const none = await http(api("/backends"), { body });
    expect(none.status).toBe(401);
    expect(none.body.error.message).toContain("admin token");
    for (const token of [TOKENS.trainer, TOKENS.viewer]) {
      const denied = await http(api("/backends"), { body, token });
      expect(denied.status).toBe(403);
      expect(denied.body.error.message).toContain("needs the admin role");
    }
    const removed = await http(api("/backends/b1"), { method: "DELETE", token: TOKENS.trainer });
    expect(removed.status).toBe(403);
    const wrong = await http(api("/backends"), { token: "not-a-token" });
    expect(wrong.status).toBe(401);
  });

  it("400s a bad registration with a readable message", async () => {
    const cases: Array<[unknown, string]> = [
      [{ baseUrl: "gpu-3:8000" }, "baseUrl: expected an http:// or https:// URL such as http://gpu-3:8000"],
      [{ baseUrl: "ftp://gpu-3" }, "baseUrl: expected an http:// or https:// URL such as http://gpu-3:8000"],
      [{ baseUrl: "http://gpu-3:8000/?x=1" }, "baseUrl: the base URL may not carry a query or fragment"],
      [{ baseUrl: "http://u:pw@gpu-3:8000" }, "baseUrl: the URL may not carry a user name or password"],
      [{ baseUrl: "https://token@gpu-3" }, "baseUrl: the URL may not carry a user name or password"],
      [{ baseUrl: 8000 }, "baseUrl: expected a URL string such as http://gpu-3:8000"],
      [{}, "baseUrl: expected a URL string such as http://gpu-3:8000"],
      [{ baseUrl: "http://gpu-3:8000", kind: "tgi" }, "kind: kind must be one of vllm, sglang, nemo-rl"],
      [{ baseUrl: "http://gpu-3:8000", maxConcurrency: 0 }, "maxConcurrency: too small"],
      [{ baseUrl: "http://gpu-3:8000", id: "a b" }, "id: a backend id is 1-128 letters"],
      [{ baseUrl: "http://gpu-3:8000", url: "x" }, 'unrecognized key: "url"'],
    ];
    for (const [body, message] of cases) {
      const response = await http(api("/backends"), { body, token: TOKENS.admin });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe("VALIDATION_FAILED");
      expect(response.body.error.message.toLowerCase()).toContain(message.toLowerCase());
    }
    const badId = await http(api("/backends/a%20b/drain"), { method: "POST", token: TOKENS.admin });
    expect(badId.status).toBe(400);
    expect(badId.body.error.message).toContain("id: a backend id");
    const noVersion = await http(api("/backends/b1/weight-version"), { body: {}, token: TOKENS.admin });
    expect(noVersion.status).toBe(400);
    expect(noVersion.body.error.message).toContain("weightVersion");
  });

  it("405s a wrong method on a backend path and names the allowed ones", async () => {
    const put = await http(api("/backends/b1"), { method: "PUT", token: TOKENS.admin });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("DELETE");
  });

  it("lists every backend route in /openapi.json with its role and the 503", async () => {
    const { body } = await http(`${server.url}/openapi.json`);
    const paths = body.paths as Record<
      string,
      Record<string, { operationId: string; "x-raas-role": string }>
    >;
    expect(paths["/api/v1/backends"]?.get?.operationId).toBe("listBackends");
    expect(paths["/api/v1/backends"]?.get?.["x-raas-role"]).toBe("viewer");
    expect(paths["/api/v1/backends"]?.post?.operationId).toBe("registerBackend");
    expect(paths["/api/v1/backends/{id}/drain"]?.post?.operationId).toBe("drainBackend");
    expect(paths["/api/v1/backends/{id}/resume"]?.post?.operationId).toBe("resumeBackend");
    expect(paths["/api/v1/backends/{id}/weight-version"]?.post?.operationId).toBe("setBackendWeightVersion");
    expect(paths["/api/v1/backends/{id}"]?.delete?.operationId).toBe("removeBackend");
    expect(paths["/api/v1/backends/{id}"]?.delete?.["x-raas-role"]).toBe("admin");
    expect(Object.keys(body.paths["/api/v1/backends"].post.responses)).toEqual(
      expect.arrayContaining(["200", "201", "400", "401", "403", "503"]),
    );
    const registerSchema = body.components.schemas.RegisterBackendRequest;
    expect(registerSchema.required).toEqual(["baseUrl"]);
    expect(Object.keys(body.components.schemas.ListBackendsResponse.properties)).toEqual(["backends"]);
    expect(paths["/api/v1/whoami"]?.get?.operationId).toBe("whoami");
  });
});

describe("system.whoami", () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ auth: { requireViewerToken: true } });
  });
  afterAll(() => server.close());

  it("returns the role of the token sent over tRPC, and null without one even when reads need a token", async () => {
    expect(await trpcClient(server.url, TOKENS.admin).system.whoami.query()).toEqual({
      role: "admin",
      token: "valid",
    });
    expect(await trpcClient(server.url, TOKENS.trainer).system.whoami.query()).toEqual({
      role: "trainer",
      token: "valid",
    });
    expect(await trpcClient(server.url, TOKENS.viewer).system.whoami.query()).toEqual({
      role: "viewer",
      token: "valid",
    });
    expect(await trpcClient(server.url).system.whoami.query()).toEqual({ role: null, token: "none" });
  });

  it("reports an unknown token as invalid with 200 over REST, and changes nothing", async () => {
    const before = await http(`${server.url}/api/v1/stats`, { token: TOKENS.viewer });
    const wrong = await http(`${server.url}/api/v1/whoami`, { token: "guess" });
    expect(wrong.status).toBe(200);
    expect(wrong.body).toEqual({ role: null, token: "invalid" });
    const admin = await http(`${server.url}/api/v1/whoami`, { token: TOKENS.admin });
    expect(admin.body).toEqual({ role: "admin", token: "valid" });
    const after = await http(`${server.url}/api/v1/stats`, { token: TOKENS.viewer });
    expect(after.body.stages).toEqual(before.body.stages);
  });
});
