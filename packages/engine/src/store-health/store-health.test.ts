import { describe, expect, it } from "vitest";
import { ManualClock } from "../testing/manual-clock";
import { StoreHealth } from "./store-health";

const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

describe("StoreHealth", () => {
  it("turns unavailable at a connection failure and available at the next success, timing the outage", () => {
    const clock = new ManualClock(0);
    const health = new StoreHealth({ clock });
    const changes: boolean[] = [];
    health.onChange((state) => changes.push(state.available));
    expect(health.availableForMs()).toBe(Number.POSITIVE_INFINITY);

    expect(health.reportFailure(refused)).toBe(true);
    expect(health.reportFailure(refused)).toBe(true);
    expect(health.state()).toMatchObject({
      available: false,
      reason: "store unreachable: connect ECONNREFUSED 127.0.0.1:5432",
      outages: 1,
      connectionErrors: 2,
    });
    void clock.advance(4_000);
    expect(health.availableForMs()).toBe(0);
    expect(health.state().unavailableMs).toBe(4_000);

    health.reportReachable();
    void clock.advance(1_500);
    expect(health.state()).toMatchObject({ available: true, reason: null, unavailableMs: 4_000, outages: 1 });
    expect(health.availableForMs()).toBe(1_500);
    expect(changes).toEqual([false, true]);
  });

  it("logs an outage it rides out as warnings, never as an error", async () => {
    const clock = new ManualClock(0);
    const lines: Array<{ level: string; message: string }> = [];
    const record = (level: string) => (_fields: object, message?: string) =>
      void lines.push({ level, message: message ?? "" });
    const logger = {
      debug: record("debug"),
      info: record("info"),
      warn: record("warn"),
      error: record("error"),
    };
    const health = new StoreHealth({ clock, logger, probeIntervalMs: 1_000 });
    let isUp = false;
    health.probeWith(async () => {
      if (!isUp) throw refused;
    });
    health.reportFailure(refused);
    await clock.advance(5_000);
    isUp = true;
    await clock.advance(1_000);

    expect(health.state()).toMatchObject({ available: true, outages: 1 });
    expect(lines.map((line) => line.level)).toEqual(["warn", "warn"]);
    expect(lines.map((line) => line.message)).toEqual([
      expect.stringMatching(/^store unreachable/),
      "store reachable again",
    ]);
  });

  it("ignores errors that are not connection failures", () => {
    const health = new StoreHealth({ clock: new ManualClock(0) });
    expect(health.reportFailure(new Error('duplicate key value violates unique constraint "Job_pkey"'))).toBe(
      false,
    );
    expect(health.state()).toMatchObject({ available: true, outages: 0, connectionErrors: 0 });
  });

  it("finds a network code in the cause chain, and takes the adapter's classifier", () => {
    const wrapped = new Error("query failed", { cause: refused });
    expect(new StoreHealth().isConnectionError(wrapped)).toBe(true);
    const custom = new StoreHealth({ isConnectionError: (error) => String(error).includes("terminated") });
    expect(custom.isConnectionError(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(custom.isConnectionError(refused)).toBe(false);
  });

  it("probes the store while it is unavailable, and ends the outage when the probe answers", async () => {
    const clock = new ManualClock(0);
    const health = new StoreHealth({ clock, probeIntervalMs: 1_000 });
    let isUp = false;
    let probes = 0;
    health.probeWith(async () => {
      probes += 1;
      if (!isUp) throw refused;
    });
    await clock.advance(5_000);
    expect(probes).toBe(0);
    health.reportFailure(refused);
    await clock.advance(3_000);
    expect(probes).toBe(3);
    expect(health.isAvailable).toBe(false);
    isUp = true;
    await clock.advance(1_000);
    expect(health.isAvailable).toBe(true);
    expect(health.state().unavailableMs).toBe(4_000);
    await clock.advance(5_000);
    expect(probes).toBe(4);
    health.reportFailure(refused);
    health.close();
    await clock.advance(5_000);
    expect(probes).toBe(4);
  });
});
