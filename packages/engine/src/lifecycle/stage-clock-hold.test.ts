import { describe, expect, it } from "vitest";
import type { Clock } from "../ports/clock.port";
import { StageClockHold, startBudgetTimer } from "./stage-clock-hold";

/** A clock whose time moves only when the test says. */
function manualClock() {
  let now = 0;
  const timers = new Set<{ at: number; fn: () => void }>();
  const clock: Clock = {
    now: () => now,
    setTimer(fn, delayMs) {
      const timer = { at: now + delayMs, fn };
      timers.add(timer);
      return () => timers.delete(timer);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (const timer of [...timers]) {
      if (timer.at > now) continue;
      timers.delete(timer);
      timer.fn();
    }
  };
  return { clock, advance };
}

describe("startBudgetTimer", () => {
  it("does not count held time against the budget", () => {
    const { clock, advance } = manualClock();
    const hold = new StageClockHold();
    let expired = false;
    startBudgetTimer(clock, 1_000, () => (expired = true), hold);
    advance(600);
    hold.set(true);
    advance(5_000);
    expect(expired).toBe(false);
    hold.set(false);
    advance(399);
    expect(expired).toBe(false);
    advance(1);
    expect(expired).toBe(true);
  });

  it("starts counting only when released when the hold is on from the start, and cancels cleanly", () => {
    const { clock, advance } = manualClock();
    const hold = new StageClockHold();
    hold.set(true);
    let expired = 0;
    const cancel = startBudgetTimer(clock, 100, () => expired++, hold);
    advance(1_000);
    hold.set(false);
    advance(50);
    cancel();
    advance(1_000);
    hold.set(true);
    hold.set(false);
    advance(1_000);
    expect(expired).toBe(0);
  });
});
