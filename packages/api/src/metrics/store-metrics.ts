import { Counter, Gauge, type Registry } from "prom-client";
import type { ControlPlaneStoreHealth } from "../store-health.port";

/**
 * This process's view of its store: `raas_store_available` (1/0), and since the process started
 * `raas_store_outages_total`, `raas_store_unavailable_seconds_total` (the current outage
 * included) and `raas_store_connection_errors_total`. Every process exports its own.
 */
export function registerStoreMetrics(registry: Registry, health: ControlPlaneStoreHealth): void {
  const registers = [registry];
  new Gauge({
    name: "raas_store_available",
    help: "1 while this process reaches its store (database), 0 during an outage.",
    registers,
    collect() {
      this.set(health.state().available ? 1 : 0);
    },
  });
  const total = (name: string, help: string, read: () => number) =>
    new Counter({
      name,
      help,
      registers,
      collect() {
        // The tracker keeps the running total; the counter mirrors it at each scrape.
        this.reset();
        this.inc(read());
      },
    });
  total(
    "raas_store_outages_total",
    "Store outages this process has seen begin.",
    () => health.state().outages,
  );
  total(
    "raas_store_unavailable_seconds_total",
    "Time this process could not reach its store, the current outage included, in seconds.",
    () => health.state().unavailableMs / 1_000,
  );
  total(
    "raas_store_connection_errors_total",
    "Store connections lost or refused, as this process saw them.",
    () => health.state().connectionErrors,
  );
}
