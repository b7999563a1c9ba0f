import { describe, expect, it } from "vitest";
import { choosePreemptions } from "./preemption";

const none = new Map();

describe("choosePreemptions", () => {
  const running = [
    { jobId: "low-old", priority: 0, stage: "run" as const, startedAtMs: 100 },
    { jobId: "low-new", priority: 0, stage: "run" as const, startedAtMs: 900 },
    { jobId: "lowest", priority: -5, stage: "run" as const, startedAtMs: 500 },
    { jobId: "high", priority: 10, stage: "run" as const, startedAtMs: 950 },
    { jobId: "init-low", priority: 0, stage: "init" as const, startedAtMs: 990 },
  ];

  it("preempts the lowest priority first, then the job started last, for units that waited long enough", () => {
    const waiting = [
      { priority: 10, stage: "run" as const, sinceMs: 0 },
      { priority: 10, stage: "run" as const, sinceMs: 10 },
      { priority: 10, stage: "run" as const, sinceMs: 999 }, // not waited long enough yet
    ];
    const chosen = choosePreemptions({
      running,
      waiting,
      pendingPreemptions: none,
      nowMs: 1_000,
      preemptAfterMs: 100,
    });
    expect(chosen).toEqual(["lowest", "low-new"]);
  });

  it("never preempts equal or higher priority work, nor EVAL", () => {
    const chosen = choosePreemptions({
      running: [
        { jobId: "same", priority: 3, stage: "run", startedAtMs: 0 },
        { jobId: "eval", priority: 0, stage: "eval", startedAtMs: 0 },
      ],
      waiting: [
        { priority: 3, stage: "run", sinceMs: 0 },
        { priority: 9, stage: "eval", sinceMs: 0 },
      ],
      pendingPreemptions: none,
      nowMs: 10_000,
      preemptAfterMs: 0,
    });
    expect(chosen).toEqual([]);
  });

  it("counts slots already being freed and matches stages", () => {
    const chosen = choosePreemptions({
      running,
      waiting: [
        { priority: 10, stage: "init", sinceMs: 0 },
        { priority: 10, stage: "run", sinceMs: 0 },
      ],
      pendingPreemptions: new Map([["run", 1]]),
      nowMs: 1_000,
      preemptAfterMs: 0,
    });
    expect(chosen).toEqual(["init-low"]);
  });
});
