import { describe, expect, it } from "vitest";
import { row } from "../src/commands/jobs.command";
import { render } from "../src/commands/status.command";

const timings = { queueMs: 1, initMs: 2, runMs: 3, evalMs: 4 };

describe("the CLI shows failure labels", () => {
  it("jobs list: a tampered job's failure column names its label, others are as before", () => {
    const tampered = row({
      id: "job_1",
      kind: "swe",
      status: "failed",
      stage: "eval",
      reward: 0,
      failure: { kind: "agent", stage: "eval", message: "canary lied", label: "tampered" },
      timings,
    });
    expect(tampered.failure).toBe("agent@eval tampered");
    const plain = row({
      id: "job_2",
      kind: "swe",
      status: "failed",
      stage: "init",
      reward: null,
      failure: { kind: "sandbox", stage: "init", message: "no bwrap" },
      timings,
    });
    expect(plain.failure).toBe("sandbox@init");
  });

  it("status: labelled failures are said after the kinds they belong to", () => {
    const stage = { queued: 0, active: 0, concurrency: 1 };
    const text = render({
      stages: { init: stage, run: stage, eval: stage },
      submitted: 5,
      completed: 2,
      cancelled: 0,
      failedByKind: { timeout: 0, sandbox: 1, inference: 0, eval: 0, agent: 3, cancelled: 0 },
      failedByLabel: { tampered: 2, misconfigured: 1 },
      tokenBreaks: 0,
      throughputPerSec: 0,
      throughputWindowMs: 60_000,
      throughputSeries: [],
      uptimeMs: 1,
    });
    expect(text).toContain("failed: sandbox 1, agent 3 (of which tampered 2, misconfigured 1)");
  });
});
