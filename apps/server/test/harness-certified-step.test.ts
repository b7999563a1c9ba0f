// A step that takes certified traces only, through a live server: `harness` jobs run in real
// bubblewrap sandboxes against the simulator (the labelled test double for a GPU model). A
// harness that rewrites its history produces a broken certificate; its group is dropped and
// counted as `uncertifiedDropped` (not reward 0, not an infrastructure failure), and the step
// hands out the group of the shipped example harness, whose traces are exact, instead.
import type { TGatewayTraces, TStep } from "@raas/shared";
import { buildSwePolicyConfig } from "@raas/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../src/server";
import {
  SWE_INSTANCES as INSTANCES,
  rewritingHarnessCommand,
  type SweFixtureServer,
  startSweFixtureServer,
} from "./support/swe-fixture-server";

const [SOLVED] = INSTANCES as [(typeof INSTANCES)[number]];
const ADMIN = "certified-step-admin";

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
type Json = any;

describe("a step with requireCertifiedTraces over harness jobs", () => {
  let fixture: SweFixtureServer;
  let running: RunningServer;

  const call = async <T = Json>(path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${running.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        authorization: `Bearer ${ADMIN}`,
        ...(body !== undefined && { "content-type": "application/json" }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as T };
  };

  beforeAll(async () => {
    const policy = buildSwePolicyConfig(INSTANCES, new Set([SOLVED.instance_id]));
    fixture = await startSweFixtureServer({ adminToken: ADMIN, name: "certified-step", policy });
    running = fixture.running;
  }, 60_000);

  afterAll(async () => {
    await fixture?.close();
  });

  it("drops the rewriting harness's group as uncertified and hands out the exact one", async () => {
    const { body: created } = await call("/api/v1/runs", { name: "certified-harness" });
    const task = { instance: SOLVED };
    const { status, body: stepBody } = await call<{ step: TStep }>("/api/v1/steps", {
      runId: created.run.id,
      tasks: {
        type: "inline",
        tasks: [
          {
            taskId: "rewrites",
            kind: "harness",
            payload: { task, command: rewritingHarnessCommand("rewrites"), timeoutMs: 240_000 },
          },
          { taskId: "exact", kind: "harness", payload: { task, timeoutMs: 240_000 } },
        ],
      },
      groupSize: 1,
      groups: 1,
      requireCertifiedTraces: true,
      // One group at a time, in the source's order: the rewriting one is decided before the other starts.
      dynamicSampling: { policy: "none", overProvision: 1 },
    });
    expect(status, JSON.stringify(stepBody)).toBe(201);
    const stepId = stepBody.step.id;
    const handedOut: Json[] = [];
    for (let polls = 0; polls < 40; polls += 1) {
      const next = await call(`/api/v1/steps/${stepId}/next?afterSeq=0&timeoutMs=20000`);
      expect(next.status).toBe(200);
      if (next.body.done) {
        handedOut.push(...next.body.groups);
        break;
      }
    }
    expect(handedOut.map((group) => group.taskId)).toEqual(["exact"]);
    expect(handedOut[0].rewards).toEqual([1]);

    const { body: step } = await call<TStep>(`/api/v1/steps/${stepId}`);
    expect(step.status).toBe("completed");
    expect(step.stats).toMatchObject({ uncertifiedDropped: 1, failedGroups: 0, infraRetries: 0 });
    expect(step.stats.waste.uncertified.jobs).toBe(1);
    expect(step.stats.waste.infraFailures.jobs).toBe(0);

    const { body: groups } = await call(`/api/v1/steps/${stepId}/groups`);
    const dropped = groups.items.find((group: Json) => group.taskId === "rewrites");
    expect(dropped.state).toBe("dropped");
    expect(dropped.decision).not.toBe("failed");
    // The dropped member finished as a trainable job (its empty patch graded 0); its certificate broke.
    const memberId = dropped.members[0].jobId;
    const { body: job } = await call(`/api/v1/jobs/${memberId}`);
    expect(job).toMatchObject({ status: "completed", reward: 0, trainable: true });
    const { body: traces } = await call<TGatewayTraces>(`/api/v1/jobs/${memberId}/gateway-traces`);
    expect(traces.certificate).toMatchObject({ isCertified: false, callCount: 3, callsMerged: 1 });
    expect(traces.certificate.breaks).toHaveLength(1);
  }, 600_000);
});
