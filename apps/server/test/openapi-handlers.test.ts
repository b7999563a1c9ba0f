import { findDocumentGaps } from "@raas/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAllHandlersServer } from "./support/all-handlers-server";

/** The document a Python trainer generates its client from, with every handler the server composes. */
describe("/openapi.json of the composed server", () => {
  let running: Awaited<ReturnType<typeof startAllHandlersServer>>;

  beforeAll(async () => {
    running = await startAllHandlersServer();
  });
  afterAll(async () => {
    await running?.close();
  });

  it("types every registered kind's payload and result, with no undocumented field", async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the test reads the document's JSON freely
    const doc: any = await fetch(`${running.url}/openapi.json`).then((response) => response.json());
    const kinds = Object.keys(doc.components.schemas.SubmitJobRequest.discriminator.mapping).sort();
    expect(kinds).toEqual([
      "code",
      "harbor",
      "harness",
      "judge",
      "math",
      "reward-fn",
      "sleep",
      "stem",
      "swe",
    ]);
    expect(findDocumentGaps(doc)).toEqual([]);
    const { schemas } = doc.components;
    expect(schemas.MathPayload.required).toEqual(expect.arrayContaining(["taskId", "problem", "answer"]));
    expect(schemas.MathResult.properties.isCorrect.type).toBe("boolean");
    expect(schemas.MathResult.properties.agent).toEqual({ $ref: "#/components/schemas/AgentRunSummary" });
    expect(schemas.CodePayload.properties.tests.oneOf).toHaveLength(2);
    expect(schemas.CodeResult.properties.cases.items.properties.status.type).toBe("string");
    expect(schemas.SwePayload.properties.instance.properties.base_commit.pattern).toBe("^[0-9a-f]{40}$");
    expect(schemas.SweResult.properties.resolved.type).toBe("boolean");
    expect(schemas.SweResult.required).not.toContain("agent");
    // A harness job: a swe task and the command of the agent that solves it through the gateway.
    expect(schemas.HarnessPayload.required).toEqual(expect.arrayContaining(["task"]));
    expect(schemas.HarnessPayload.properties.command.type).toBe("array");
    // The submit example is a valid math job: every required key present, no unknown key.
    const example = doc.paths["/api/v1/jobs"].post.requestBody.content["application/json"].example;
    expect(example.kind).toBe("math");
    expect(Object.keys(schemas.MathPayload.properties)).toEqual(
      expect.arrayContaining(Object.keys(example.payload)),
    );
    expect(Object.keys(example.payload)).toEqual(expect.arrayContaining(schemas.MathPayload.required));
    expect(schemas.StemResult.properties.source.enum).toEqual(["boxed", "submission", "text", "none"]);
  });
});
