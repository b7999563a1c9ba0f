import { describe, expect, it } from "vitest";
import { admissionWindow, MIN_ADMISSION_WINDOW, withFairShareDefaults } from "./fair-share-options";

describe("admissionWindow", () => {
  it("is this engine's slots plus the other live workers' slots", () => {
    expect(admissionWindow({ queuedAhead: null, ownSlots: 0, otherSlots: 2 * (4 + 4) })).toBe(16);
    expect(admissionWindow({ queuedAhead: null, ownSlots: 10, otherSlots: 30 })).toBe(40);
    expect(admissionWindow({ queuedAhead: null, ownSlots: 128, otherSlots: null })).toBe(128);
  });

  it("keeps a floor while no worker has reported (an API-only server has no slots of its own)", () => {
    expect(admissionWindow({ queuedAhead: null, ownSlots: 0, otherSlots: null })).toBe(MIN_ADMISSION_WINDOW);
    expect(admissionWindow({ queuedAhead: null, ownSlots: 0, otherSlots: 0 })).toBe(MIN_ADMISSION_WINDOW);
    expect(MIN_ADMISSION_WINDOW).toBeGreaterThan(1);
  });

  it("is the fixed queuedAhead when one is given, whatever the capacity", () => {
    expect(admissionWindow({ queuedAhead: 3, ownSlots: 0, otherSlots: 80 })).toBe(3);
    expect(admissionWindow({ queuedAhead: 1, ownSlots: 0, otherSlots: null })).toBe(1);
  });
});

describe("withFairShareDefaults", () => {
  it("leaves the window to the live capacity unless queuedAhead is given", () => {
    const defaults = withFairShareDefaults({});
    expect(defaults.queuedAhead).toBeNull();
    expect(defaults.capacity).toBeNull();
    expect(defaults.capacityEveryMs).toBe(3_000);
    expect(withFairShareDefaults({ queuedAhead: 7.9 }).queuedAhead).toBe(7);
    expect(withFairShareDefaults({ queuedAhead: 0 }).queuedAhead).toBe(1);
  });
});
