import { describe, expect, it } from "vitest";
import { CallSignal } from "./call-signal";

describe("CallSignal", () => {
  it("is the caller's own signal when there is no deadline", () => {
    const caller = new AbortController();
    expect(new CallSignal(caller.signal, undefined).signal).toBe(caller.signal);
    expect(new CallSignal(undefined, undefined).signal).toBeUndefined();
  });

  it("aborts with the caller, which is not the deadline", () => {
    const caller = new AbortController();
    const calling = new CallSignal(caller.signal, Date.now() + 60_000);
    caller.abort(new Error("job cancelled"));
    expect(calling.signal?.aborted).toBe(true);
    expect(String(calling.signal?.reason)).toContain("job cancelled");
    expect(calling.isDeadlinePassed).toBe(false);
    calling.dispose();
  });

  it("aborts when the deadline passes, and says so", async () => {
    const calling = new CallSignal(undefined, Date.now() + 20);
    expect(calling.signal?.aborted).toBe(false);
    await new Promise<void>((resolve) => calling.signal?.addEventListener("abort", () => resolve()));
    expect(calling.isDeadlinePassed).toBe(true);
    expect(calling.signal?.reason).toBeInstanceOf(DOMException);
    expect(String(calling.signal?.reason)).toContain("TimeoutError");
  });

  it("starts aborted for a passed deadline or an aborted caller", () => {
    const passed = new CallSignal(undefined, 1_000, () => 2_000);
    expect(passed.signal?.aborted).toBe(true);
    expect(passed.isDeadlinePassed).toBe(true);
    const caller = new AbortController();
    caller.abort();
    const cancelled = new CallSignal(caller.signal, 5_000, () => 0);
    expect(cancelled.signal?.aborted).toBe(true);
    expect(cancelled.isDeadlinePassed).toBe(false);
  });

  it("lets go of the caller's signal and stops its timer once disposed", async () => {
    const caller = new AbortController();
    const calling = new CallSignal(caller.signal, Date.now() + 20);
    calling.dispose();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(calling.signal?.aborted).toBe(false);
    caller.abort();
    expect(calling.signal?.aborted).toBe(false);
  });
});
