import { describe, expect, it } from "vitest";
import { workerOccupancy } from "./overview-workers";

describe("workerOccupancy", () => {
  it("sums jobs running and slots over the pools a worker runs", () => {
    const occupancy = workerOccupancy({
      pools: { init: { concurrency: 8, active: 2 }, run: { concurrency: 8, active: 6 } },
    });
    expect(occupancy).toEqual({ active: 8, slots: 16, fraction: 0.5 });
  });

  it("has no fraction for a worker without pools or with paused ones", () => {
    expect(workerOccupancy({ pools: {} }).fraction).toBeNull();
    expect(workerOccupancy({ pools: { eval: { concurrency: 0, active: 0 } } }).fraction).toBeNull();
  });
});
