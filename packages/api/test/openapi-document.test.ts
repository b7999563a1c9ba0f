import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findDocumentGaps } from "../src/openapi/find-document-gaps";
import { http, startTestServer, type TestServer } from "./helpers/test-server";

type Doc = Awaited<ReturnType<typeof http>>["body"];

describe("the OpenAPI document a trainer generates a client from", () => {
  let server: TestServer;
  let doc: Doc;

  beforeAll(async () => {
    server = await startTestServer();
    doc = (await http(`${server.url}/openapi.json`)).body as Doc;
  });
  afterAll(() => server.close());

  it("has no gaps: every operation, parameter and property described, examples, shapes, Job by $ref", () => {
    expect(findDocumentGaps(doc)).toEqual([]);
    // Job is one component; everything else references it.
    expect(doc.components.schemas.Job.oneOf).toEqual([{ $ref: "#/components/schemas/SleepJob" }]);
    expect(doc.paths["/api/v1/jobs/{id}"].get.responses["200"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Job",
    });
  });

  it("types payload and result per handler kind, discriminated by kind", () => {
    const { schemas } = doc.components;
    expect(schemas.SubmitJobRequest.discriminator).toEqual({
      propertyName: "kind",
      mapping: { sleep: "#/components/schemas/SubmitSleepJobRequest" },
    });
    expect(schemas.SleepPayload.properties.runMs).toMatchObject({ type: "number", default: 200 });
    expect(schemas.SleepJob.properties.kind.const).toBe("sleep");
    expect(schemas.SleepJob.properties.result.anyOf[0]).toEqual({ $ref: "#/components/schemas/SleepResult" });
    expect(schemas.SleepResult.properties.steps.type).toBe("integer");
    expect(schemas.ToolCall.properties.arguments.type).toBe("object");
  });

  it("documents the errors each route really answers, servers and how to get a token", () => {
    const submit = doc.paths["/api/v1/jobs"].post;
    expect(Object.keys(submit.responses)).toEqual(
      expect.arrayContaining(["200", "201", "400", "401", "403", "409", "413", "415", "500"]),
    );
    expect(submit.requestBody.content["application/json"].example.kind).toBe("math");
    expect(Object.keys(doc.paths["/api/v1/backends"].get.responses)).toContain("503");
    expect(Object.keys(doc.paths["/api/v1/jobs/{id}"].get.responses)).toContain("404");
    expect(Object.keys(doc.paths["/api/v1/health"].get.responses)).not.toContain("401");
    expect(doc.servers.length).toBeGreaterThan(0);
    const scheme = doc.components.securitySchemes.bearerAuth.description as string;
    expect(scheme).toContain("viewer < trainer < admin");
    expect(scheme).toContain(".raas/admin-token");
    expect(scheme).toContain("RAAS_TRAINER_TOKEN");
    expect(scheme).toMatch(/\*\*trainer\*\*: [^\n]*submitJob/);
    expect(scheme).toMatch(/\*\*admin\*\*: [^\n]*registerBackend/);
    expect(scheme).toMatch(/\*\*none\*\* \(no token\): [^\n]*getHealth/);
    expect(submit.description).toContain("Role: trainer or higher");
  });
});

describe("findDocumentGaps", () => {
  it("names each kind of gap", () => {
    const job = { type: "object", description: "a job", properties: {} as Record<string, unknown> };
    for (const key of ["jobKey", "status", "stage", "timings", "attempts", "trainable"]) {
      job.properties[key] = { type: "string", description: key };
    }
    const gaps = findDocumentGaps({
      paths: {
        "/x/{id}": {
          post: {
            parameters: [{ name: "id", in: "path", schema: { type: "string" } }],
            requestBody: {
              content: { "application/json": { schema: { $ref: "#/components/schemas/Req" } } },
            },
            responses: {
              "200": { content: { "application/json": { schema: { type: "array", items: job } } } },
            },
          },
        },
      },
      components: {
        schemas: {
          Req: {
            type: "object",
            description: "request",
            properties: { payload: { description: "anything" }, count: { type: "integer" } },
          },
        },
      },
    });
    expect(gaps).toEqual([
      "components.Req.payload: schema {} (no shape)",
      "components.Req.count: property without description",
      "POST /x/{id}: operation without description",
      "POST /x/{id}: parameter id without description",
      "POST /x/{id}: request body (application/json) without example",
      "POST /x/{id} response 200/items: the Job schema is inlined; reference #/components/schemas/Job",
    ]);
  });
});
