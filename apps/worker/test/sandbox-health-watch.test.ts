import type { Clock, Sandbox, SandboxRuntime, SandboxSpec } from "@raas/engine";
import { blamePolicy, sandboxFailure } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { SandboxHealthWatch } from "../src/sandbox-health-watch";
import { SandboxStartRecord } from "../src/sandbox-start-record";

/** A clock moved by hand: `advance` fires the timers that fall due. */
class HandClock implements Clock {
  nowMs = 1_000;
  readonly timers = new Set<{ atMs: number; fn: () => void }>();
  now(): number {
    return this.nowMs;
  }
  setTimer(fn: () => void, delayMs: number): () => void {
    const timer = { atMs: this.nowMs + delayMs, fn };
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  }
  async advance(ms: number): Promise<void> {
    this.nowMs += ms;
    for (const timer of [...this.timers]) {
      if (timer.atMs > this.nowMs) continue;
      this.timers.delete(timer);
      timer.fn();
    }
    await settle();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 10; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** A runtime whose starts fail while `broken` (or when the spec names a bad image). */
function fakeRuntime() {
  const state = { broken: false, starts: 0, closes: 0 };
  const sandbox = {
    close: async () => {
      state.closes += 1;
    },
  } as unknown as Sandbox;
  const runtime: SandboxRuntime = {
    name: "fake",
    async create(spec: SandboxSpec, signal?: AbortSignal) {
      state.starts += 1;
      if (signal?.aborted) throw new Error("aborted");
      if (state.broken) throw new Error("ENOSPC: no space left on device, mkdir '/sbx/ws'");
      if (spec.image === "missing") throw new Error("image missing not found");
      return sandbox;
    },
    onEvent: () => () => undefined,
    closeAll: async () => undefined,
  };
  return { runtime, state };
}

function watch(runtime: SandboxRuntime, clock: HandClock) {
  const changes: string[] = [];
  const health = new SandboxHealthWatch({
    runtime,
    failuresBeforeProbe: 3,
    probeIntervalMs: 10_000,
    clock,
    onSuspect: () => changes.push("suspect"),
    onSick: (reason) => changes.push(`sick: ${reason}`),
    onRecovered: () => changes.push("recovered"),
  });
  return { health, changes };
}

describe("SandboxStartRecord", () => {
  it("asks for a probe after the threshold of consecutive failures; a success resets the count", () => {
    let nowMs = 5_000;
    const record = new SandboxStartRecord(3, () => nowMs);
    expect(record.failed("ENOSPC")).toBe("none");
    expect(record.failed("ENOSPC")).toBe("none");
    expect(record.started()).toBe("none");
    expect(record.consecutiveFailures).toBe(0);
    expect(record.failed("ENOSPC")).toBe("none");
    expect(record.failed("ENOSPC")).toBe("none");
    expect(record.failed("ENOSPC")).toBe("probe");
    // Failures while the probe runs ask for no second one.
    expect(record.failed("ENOSPC")).toBe("none");
    nowMs = 6_000;
    expect(record.probed({ ok: false, message: "ENOSPC again" })).toBe("sick");
    expect(record.health).toBe("sick");
    expect(record.sickSinceMs).toBe(6_000);
    expect(record.reason()).toMatch(/4 sandbox start\(s\) in a row failed.*ENOSPC again/);
    expect(record.started()).toBe("recovered");
    expect(record.reason()).toBeNull();
  });

  it("a successful probe means the specs were at fault, not the worker", () => {
    const record = new SandboxStartRecord(2);
    record.failed("image missing");
    expect(record.failed("image missing")).toBe("probe");
    expect(record.probed({ ok: true })).toBe("none");
    expect(record.health).toBe("healthy");
    expect(record.consecutiveFailures).toBe(0);
  });

  it("ignores a probe result once a job's start already decided", () => {
    const record = new SandboxStartRecord(1);
    expect(record.failed("x")).toBe("probe");
    record.started();
    expect(record.probed({ ok: false, message: "x" })).toBe("none");
    expect(record.health).toBe("healthy");
  });
});

describe("SandboxHealthWatch", () => {
  it("marks the worker sick after repeated infrastructure failures and a failed probe, probes on, recovers", async () => {
    const clock = new HandClock();
    const { runtime, state } = fakeRuntime();
    const { health, changes } = watch(runtime, clock);
    state.broken = true;
    for (let i = 0; i < 3; i += 1)
      await expect(health.runtime.create({ jobId: `j${i}` })).rejects.toThrow(/ENOSPC/);
    await settle();
    expect(health.isSick).toBe(true);
    expect(changes).toHaveLength(2);
    expect(changes[0]).toBe("suspect");
    expect(changes[1]).toMatch(/^sick: 3 sandbox start\(s\) in a row failed.*ENOSPC/);
    expect(state.starts).toBe(4); // three jobs and the probe

    await clock.advance(10_000);
    expect(state.starts).toBe(5); // one probe per interval while sick
    expect(health.isSick).toBe(true);

    state.broken = false;
    await clock.advance(10_000);
    expect(health.isSick).toBe(false);
    expect(changes).toEqual([changes[0], changes[1], "recovered"]);
    expect(state.closes).toBe(1); // the probe's sandbox is closed at once
    expect(clock.timers.size).toBe(0);
    health.close();
  });

  it("counts neither cancelled starts nor the policy's failures nor a spec only this task has", async () => {
    const clock = new HandClock();
    const { runtime, state } = fakeRuntime();
    const { health, changes } = watch(runtime, clock);
    const cancelled = new AbortController();
    cancelled.abort();
    for (let i = 0; i < 5; i += 1) {
      await expect(health.runtime.create({}, cancelled.signal)).rejects.toThrow();
    }
    const policy = blamePolicy(
      sandboxFailure("crashed", "the sandbox died during the tool call"),
      "the agent's call used up its memory limit",
    );
    const blamed = { ...runtime, create: async () => Promise.reject(policy) };
    const blamedWatch = watch(blamed, clock);
    for (let i = 0; i < 5; i += 1) await expect(blamedWatch.health.runtime.create({})).rejects.toThrow();
    // A bad image fails every start of its task, but the probe (the runtime's defaults) starts.
    for (let i = 0; i < 5; i += 1)
      await expect(health.runtime.create({ image: "missing" })).rejects.toThrow();
    await settle();
    expect(health.isSick).toBe(false);
    expect(blamedWatch.health.isSick).toBe(false);
    // The bad image's failures held work back only while the probe ran.
    expect(changes).toEqual(["suspect", "recovered"]);
    expect(blamedWatch.changes).toEqual([]);
    expect(state.closes).toBeGreaterThanOrEqual(1);
    health.close();
  });
});
