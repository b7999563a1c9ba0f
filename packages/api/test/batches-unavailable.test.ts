// `runs.*`, `steps.*`, `datasets.*` and `policy.*` on a control plane composed without a batch
// system or policy control: a 503 with a sentence, never a 500. The routes against a real batch
// system run in apps/server/test/training-steps.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, startTestServer, type TestServer, TOKENS } from "./helpers/test-server";

describe("training routes without a batch system", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it.each([
    ["GET", "/api/v1/runs", "without a batch system"],
    ["GET", "/api/v1/runs/run_x/steps", "without a batch system"],
    ["GET", "/api/v1/steps/stp_x/next?timeoutMs=0", "without a batch system"],
    ["GET", "/api/v1/steps/stp_x/stream", "without a batch system"],
    ["GET", "/api/v1/datasets", "without a batch system"],
    ["GET", "/api/v1/policy", "without a policy control"],
    ["POST", "/api/v1/policy/pause", "without a policy control"],
  ])("%s %s answers 503", async (method, path, sentence) => {
    const answer = await http(
      `${server.url}${path}`,
      method === "POST" ? { body: {}, token: TOKENS.trainer } : { token: TOKENS.viewer },
    );
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe("UNAVAILABLE");
    expect(answer.body.error.message).toContain(sentence);
  });

  it("checks the role before saying the system is missing", async () => {
    const denied = await http(`${server.url}/api/v1/runs`, { body: { name: "x" }, token: TOKENS.viewer });
    expect(denied.status).toBe(403);
  });
});
