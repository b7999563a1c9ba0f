import type { BackendView } from "@raas/engine";
import { afterEach, describe, expect, it, vi } from "vitest";
import { watchBackendHealth } from "../src/backend-health.watcher";

function view(id: string, circuit: BackendView["circuit"], consecutiveFailures = 0): BackendView {
  return { id, circuit, consecutiveFailures, baseUrl: `http://${id}:8000` } as BackendView;
}

describe("watchBackendHealth", () => {
  afterEach(() => vi.useRealTimers());

  it("logs a circuit that opens once as a warning and its recovery once as info", () => {
    vi.useFakeTimers();
    const logs: Array<[string, Record<string, unknown>, string]> = [];
    const record = (level: string) => (fields: Record<string, unknown>, message: string) =>
      logs.push([level, fields, message]);
    const logger = {
      debug: record("debug"),
      info: record("info"),
      warn: record("warn"),
      error: record("error"),
    };
    let backends = [view("a", "closed"), view("b", "closed")];
    const watcher = watchBackendHealth(() => backends, logger, 100);

    vi.advanceTimersByTime(100);
    expect(logs).toEqual([]);
    backends = [view("a", "open", 3), view("b", "closed")];
    vi.advanceTimersByTime(300);
    expect(logs).toHaveLength(1);
    expect(logs[0]?.[0]).toBe("warn");
    expect(logs[0]?.[1]).toMatchObject({ backendId: "a", consecutiveFailures: 3, circuit: "open" });
    // A failed half-open probe re-opens the circuit: still the same outage, not logged again.
    for (const circuit of ["half-open", "open", "half-open"] as const) {
      backends = [view("a", circuit, 4), view("b", "closed")];
      vi.advanceTimersByTime(100);
    }
    backends = [view("a", "closed"), view("b", "closed")];
    vi.advanceTimersByTime(100);
    expect(logs.map(([level, fields]) => [level, fields.backendId, fields.circuit])).toEqual([
      ["warn", "a", "open"],
      ["info", "a", "closed"],
    ]);
    watcher.stop();
    backends = [view("a", "open", 3)];
    vi.advanceTimersByTime(1_000);
    expect(logs).toHaveLength(2);
  });
});
