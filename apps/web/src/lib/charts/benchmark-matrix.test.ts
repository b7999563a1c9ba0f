import { describe, expect, it } from "vitest";
import { instanceMatrix } from "./benchmark-matrix";

describe("instanceMatrix", () => {
  it("lines up each instance's result per run and counts who solved what", () => {
    const matrix = instanceMatrix([
      [
        { instanceId: "b", resolved: true, jobId: "job_1" },
        { instanceId: "a", resolved: true, jobId: null },
        { instanceId: "c", resolved: false, jobId: "job_2" },
      ],
      [
        { instanceId: "a", resolved: true, jobId: "job_3" },
        { instanceId: "c", resolved: false, jobId: null },
        { instanceId: "d", resolved: true, jobId: null },
      ],
    ]);
    expect(matrix.rows.map((row) => row.instanceId)).toEqual(["a", "b", "c", "d"]);
    expect(matrix.rows[1]?.cells).toEqual([
      { resolved: true, jobId: "job_1", reward: null, error: null },
      null,
    ]);
    expect(matrix.rows.map((row) => row.solvedBy)).toEqual([2, 1, 0, 1]);
    expect(matrix.rows.map((row) => row.isSplit)).toEqual([false, false, false, false]);
    expect(matrix.solvedOnlyBy).toEqual([1, 1]);
    expect(matrix.solvedByAll).toBe(1);
    expect(matrix.solvedByNone).toBe(1);
  });

  it("marks an instance the runs disagree on", () => {
    const matrix = instanceMatrix([
      [{ instanceId: "x", resolved: true, jobId: null }],
      [{ instanceId: "x", resolved: false, jobId: null }],
      [],
    ]);
    expect(matrix.rows[0]).toMatchObject({
      solvedBy: 1,
      isSplit: true,
      cells: [{ resolved: true }, { resolved: false }, null],
    });
    expect(matrix.solvedOnlyBy).toEqual([1, 0, 0]);
  });

  it("reads an environment result's reward, and an error as no grade", () => {
    const matrix = instanceMatrix([
      [
        {
          instanceId: "t1",
          resolved: false,
          jobId: "job_1",
          detail: { reward: 0.5, jobId: "job_1", error: null },
        },
        {
          instanceId: "t2",
          resolved: false,
          jobId: "job_2",
          detail: { reward: null, error: "eval in eval: crashed" },
        },
      ],
      [
        { instanceId: "t1", resolved: true, jobId: "job_3", detail: { reward: 1 } },
        { instanceId: "t2", resolved: true, jobId: "job_4", detail: { reward: 1 } },
      ],
    ]);
    expect(matrix.rows[0]?.cells[0]).toEqual({ resolved: false, jobId: "job_1", reward: 0.5, error: null });
    expect(matrix.rows[1]?.cells[0]).toEqual({
      resolved: false,
      jobId: "job_2",
      reward: null,
      error: "eval in eval: crashed",
    });
    // t1 is a disagreement; t2 is not (one run has no grade for it).
    expect(matrix.rows.map((row) => row.isSplit)).toEqual([true, false]);
  });
});
