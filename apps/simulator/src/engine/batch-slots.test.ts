import { describe, expect, it } from "vitest";
import { BatchSlots } from "./batch-slots";

describe("BatchSlots occupancy", () => {
  it("integrates busy time and slot-seconds at every change, queued requests included", async () => {
    let nowMs = 0;
    const slots = new BatchSlots(2, () => nowMs);
    nowMs = 1_000; // idle
    const releaseA = await slots.acquire();
    nowMs = 2_000; // one running
    const releaseB = await slots.acquire();
    const queued = slots.acquire();
    nowMs = 4_000; // two running, one waiting
    releaseA(); // the queued request takes the slot at once
    const releaseC = await queued;
    nowMs = 5_000; // two running
    releaseB();
    releaseC();
    nowMs = 8_000; // idle
    expect(slots.occupancy()).toEqual({ busySeconds: 4, slotSeconds: 7 });
    expect(slots.runningCount).toBe(0);
  });
});
