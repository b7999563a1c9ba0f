import { describe, expect, it } from "vitest";
import { DemoMilestones } from "./demo-milestones";

describe("demo milestones", () => {
  it("reports once, when the jobs, every run's first step and the comparison are all in", () => {
    let nowMs = 1_000;
    const milestones = new DemoMilestones({
      runKeys: ["demo-math", "demo-swe"],
      hasComparison: true,
      now: () => nowMs,
    });
    nowMs = 1_200;
    expect(milestones.reach("queues")).toBeNull();
    nowMs = 9_000;
    expect(milestones.reach("step:demo-math")).toBeNull();
    nowMs = 20_000;
    expect(milestones.reach("comparison")).toBeNull();
    expect(milestones.allReachedAfterMs()).toBeNull();
    nowMs = 31_000;
    // A second sighting keeps the first time.
    expect(milestones.reach("queues")).toBeNull();
    nowMs = 32_500;
    expect(milestones.reach("step:demo-swe")).toBe(
      "first results on every page after 31.5 s (jobs queued 0.2 s; first step of demo-math 8.0 s, demo-swe 31.5 s; benchmark comparison 19.0 s)",
    );
    expect(milestones.allReachedAfterMs()).toBe(31_500);
    expect(milestones.reachedAfterMs("queues")).toBe(200);
    expect(milestones.reach("comparison")).toBeNull();
  });

  it("awaits no comparison without benchmark runs and no steps without training runs", () => {
    let nowMs = 0;
    const milestones = new DemoMilestones({ runKeys: [], hasComparison: false, now: () => nowMs });
    nowMs = 400;
    expect(milestones.reach("queues")).toBe("first results on every page after 0.4 s (jobs queued 0.4 s)");
  });
});
