import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http, sleepJob, startTestServer, type TestServer, TOKENS } from "./helpers/test-server";

/** What a trainer relies on when it retries submissions and sends ids it read from elsewhere. */
describe("submit contract: idempotency keys, batch errors, ids", () => {
  let server: TestServer;
  const api = (path: string) => `${server.url}/api/v1${path}`;
  const submit = (body: unknown) => http(api("/jobs"), { body, token: TOKENS.trainer });
  const submitMany = (jobs: unknown[]) => http(api("/jobs/batch"), { body: { jobs }, token: TOKENS.trainer });

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("the same jobKey with the same request returns the job (200); with another request it is a 409 naming the fields", async () => {
    const first = await submit(sleepJob({ runMs: 7 }, { jobKey: "k-1", metadata: { a: 1, b: 2 } }));
    expect(first.status).toBe(201);
    // Same request, keys in another order: the same job.
    const same = await submit({
      metadata: { b: 2, a: 1 },
      jobKey: "k-1",
      payload: { evalMs: 5, runMs: 7, initMs: 5 },
      kind: "sleep",
    });
    expect(same.status).toBe(200);
    expect(same.body.job.id).toBe(first.body.job.id);

    const otherPayload = await submit(sleepJob({ runMs: 8 }, { jobKey: "k-1", metadata: { a: 1, b: 2 } }));
    expect(otherPayload.status).toBe(409);
    expect(otherPayload.body.error.code).toBe("CONFLICT");
    expect(otherPayload.body.error.message).toContain(
      `job key "k-1" already belongs to job ${first.body.job.id}`,
    );
    expect(otherPayload.body.error.message).toContain("different payload");
    expect(otherPayload.body.error.details).toMatchObject({ jobKey: "k-1", fields: ["payload"] });

    const others = await submit(sleepJob({ runMs: 7 }, { jobKey: "k-1", priority: 5, batchId: "b-x" }));
    expect(others.status).toBe(409);
    expect(others.body.error.details.fields).toEqual(["priority", "batchId", "metadata"]);
  });

  it("a reused key inside one batch, or against a stored job, names the request's index", async () => {
    const stored = await submit(sleepJob({}, { jobKey: "k-2" }));
    expect(stored.status).toBe(201);
    const batch = await submitMany([
      sleepJob({}, { jobKey: "k-3" }),
      sleepJob({ runMs: 9 }, { jobKey: "k-2" }),
    ]);
    expect(batch.status).toBe(409);
    expect(batch.body.error.message).toMatch(/^jobs\[1\]\.jobKey: job key "k-2" already belongs to job/);
    expect(batch.body.error.details).toMatchObject({ index: 1, fields: ["payload"] });
  });

  it("a rejected batch names the index of the bad request and creates nothing", async () => {
    const badPayload = await submitMany([
      sleepJob({}, { batchId: "bad-batch" }),
      sleepJob({}, { batchId: "bad-batch" }),
      sleepJob({ runMs: -1 }, { batchId: "bad-batch" }),
    ]);
    expect(badPayload.status).toBe(400);
    expect(badPayload.body.error.code).toBe("VALIDATION_FAILED");
    expect(badPayload.body.error.message).toContain(
      'invalid payload for handler "sleep": jobs[2].payload.runMs: Too small: expected number to be >=0',
    );
    expect(badPayload.body.error.message).toContain("a sleep payload accepts: initMs, runMs, evalMs");
    expect(badPayload.body.error.details.issues).toEqual([
      { path: "jobs[2].payload.runMs", message: "Too small: expected number to be >=0" },
    ]);

    const unknownKind = await submitMany([
      sleepJob({}, { batchId: "bad-batch" }),
      { kind: "nope", payload: {} },
    ]);
    expect(unknownKind.status).toBe(400);
    expect(unknownKind.body.error.code).toBe("UNKNOWN_HANDLER_KIND");
    expect(unknownKind.body.error.message).toMatch(
      /^jobs\[1\]\.kind: unknown handler kind "nope"; registered kinds: sleep/,
    );

    const listed = await http(api("/jobs?batchId=bad-batch"), { token: TOKENS.viewer });
    expect(listed.body.items).toEqual([]);
  });

  it("ids with control characters are a 400, on every route and over tRPC", async () => {
    const cases: Array<[string, Promise<Awaited<ReturnType<typeof http>>>]> = [
      ["GET /jobs/%00", http(api("/jobs/%00"), { token: TOKENS.viewer })],
      ["GET /jobs/a%0Ab/trajectory", http(api("/jobs/a%0Ab/trajectory"), { token: TOKENS.viewer })],
      ["GET /jobs?groupId=%00", http(api("/jobs?groupId=%00"), { token: TOKENS.viewer })],
      ["GET /jobs?search=%7F", http(api("/jobs?search=%7F"), { token: TOKENS.viewer })],
      ["POST /jobs/cancel", http(api("/jobs/cancel"), { body: { jobId: "a\u0000" }, token: TOKENS.trainer })],
      ["POST /jobs/wait", http(api("/jobs/wait"), { body: { ids: ["\u0001"] }, token: TOKENS.viewer })],
      ["POST /jobs jobKey", submit(sleepJob({}, { jobKey: "k\u0000" }))],
      ["POST /jobs batchId", submit(sleepJob({}, { batchId: "b\u001b" }))],
      [
        "tRPC jobs.get",
        http(`${server.url}/trpc/jobs.get?input=${encodeURIComponent(JSON.stringify({ id: "a\u0000" }))}`, {
          token: TOKENS.viewer,
        }),
      ],
    ];
    for (const [what, pending] of cases) {
      const response = await pending;
      expect(response.status, what).toBe(400);
      const message = (response.body.error?.message ?? "") as string;
      expect(message, what).toContain("must not contain control characters");
    }
  });
});
