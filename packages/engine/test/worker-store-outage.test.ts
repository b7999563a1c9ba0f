import { describe, expect, it } from "vitest";
import { MemoryWorkerStore } from "../src/memory/memory-worker-store";
import type { WorkerBeat, WorkerRecord } from "../src/ports/worker-store.port";
import { StoreHealth } from "../src/store-health/store-health";
import { ManualClock } from "../src/testing/manual-clock";
import { WorkerHeartbeat, WorkerMonitor } from "../src/workers/index";

const refused = () =>
  Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

/** One shared database, and each process's connection to it (reporting to its own health, as the pool does). */
class Database {
  readonly store = new MemoryWorkerStore();
  isDown = false;

  connect(health: StoreHealth): MemoryWorkerStore {
    const guard = async <T>(fn: () => Promise<T>): Promise<T> => {
      if (this.isDown) {
        const error = refused();
        health.reportFailure(error);
        throw error;
      }
      health.reportReachable();
      return fn();
    };
    const store = this.store;
    return new (class extends MemoryWorkerStore {
      override heartbeat(workerId: string, beat: WorkerBeat) {
        return guard(() => store.heartbeat(workerId, beat));
      }
      override markLost(beforeMs: number) {
        return guard(() => store.markLost(beforeMs));
      }
      override register(worker: Parameters<MemoryWorkerStore["register"]>[0]) {
        return guard(() => store.register(worker));
      }
      override get(workerId: string) {
        return guard(() => store.get(workerId));
      }
      override list(options?: { includeStopped?: boolean }) {
        return guard(() => store.list(options));
      }
    })();
  }
}

function processOf(database: Database, clock: ManualClock) {
  const health = new StoreHealth({ clock, probeIntervalMs: 1_000 });
  const store = database.connect(health);
  health.probeWith(() => store.list());
  return { health, store };
}

describe("workers across a store outage", () => {
  it("no worker is marked lost for heartbeats the outage kept from the store; one that died is, after the grace", async () => {
    const clock = new ManualClock();
    const database = new Database();
    const server = processOf(database, clock);
    const lost: WorkerRecord[] = [];
    const monitor = new WorkerMonitor({
      store: server.store,
      storeHealth: server.health,
      clock,
      intervalMs: 3_000,
      missedAfterMs: 9_000,
      onLost: (worker) => void lost.push(worker),
    });
    const beats = ["alive", "dies-in-outage"].map((workerId) => {
      const worker = processOf(database, clock);
      return new WorkerHeartbeat({
        store: worker.store,
        storeHealth: worker.health,
        clock,
        workerId,
        hostname: "node-1",
        pid: 1,
        pools: () => ({ init: { concurrency: 2, active: 1 } }),
        intervalMs: 3_000,
      });
    });
    for (const beat of beats) await beat.start();
    monitor.start();
    await clock.advance(5_000);

    database.isDown = true;
    await clock.advance(20_000);
    await beats[1]?.stop().catch(() => undefined); // its process dies while the store is down
    expect(server.health.isAvailable).toBe(false);
    await clock.advance(10_000);
    const downSinceMs = clock.now();
    database.isDown = false;

    // Back: the heartbeat of the live worker is written at once, nobody is lost during the grace.
    await clock.advance(1_000);
    expect(server.health.isAvailable).toBe(true);
    expect((await database.store.get("alive"))?.heartbeatAtMs).toBeGreaterThanOrEqual(downSinceMs);
    await clock.advance(7_000);
    expect(lost).toEqual([]);
    // A worker silent for a whole grace with the store reachable is lost; the live one never is.
    await clock.advance(6_000);
    expect(lost.map((worker) => worker.id)).toEqual(["dies-in-outage"]);
    await clock.advance(30_000);
    expect(lost.map((worker) => worker.id)).toEqual(["dies-in-outage"]);
    expect((await database.store.get("alive"))?.status).toBe("active");
    await monitor.stop();
    await beats[0]?.stop();
  });
});
