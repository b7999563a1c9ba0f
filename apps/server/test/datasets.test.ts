// The shipped datasets as the composed server lists them, and steps drawing from each: every
// shipped task's payload passes its handler's validation (a step's first jobs are validated).
import type { TRun, TStep } from "@raas/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAllHandlersServer } from "./support/all-handlers-server";

describe("datasets of the server with every handler", () => {
  let running: Awaited<ReturnType<typeof startAllHandlersServer>>;
  let token: string;

  const post = async <T>(path: string, body: unknown) => {
    const response = await fetch(`${running.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as T };
  };

  beforeAll(async () => {
    running = await startAllHandlersServer();
    token = running.adminToken;
  });
  afterAll(async () => {
    await running?.close();
  });

  it("lists math, code, stem and swe with their sizes", async () => {
    const listed = await fetch(`${running.url}/api/v1/datasets`).then((r) => r.json());
    expect(listed).toEqual({
      items: [
        { name: "code", size: 12, kinds: ["code"] },
        { name: "math", size: 24, kinds: ["math"] },
        { name: "stem", size: 12, kinds: ["stem"] },
        { name: "swe", size: 10, kinds: ["swe"] },
      ],
    });
  });

  it.each(["math", "code", "stem", "swe"])("starts a step from the %s dataset", async (dataset) => {
    const { body: created } = await post<{ run: TRun }>("/api/v1/runs", { name: `from-${dataset}` });
    const answer = await post<{ step: TStep }>("/api/v1/steps", {
      runId: created.run.id,
      tasks: { type: "dataset", dataset },
      groupSize: 1,
      groups: 1,
      dynamicSampling: { policy: "none" },
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    const cancelled = await post<TStep>(`/api/v1/steps/${answer.body.step.id}/cancel`, {});
    expect(cancelled.body.status).toBe("cancelled");
  });
});
