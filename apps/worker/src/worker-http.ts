import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ControlPlaneMetrics, type ControlPlaneStoreHealth } from "@raas/api";
import type { RolloutEngine } from "@raas/engine";
import type { RoutedInferencePool } from "@raas/inference";
import { Gauge } from "prom-client";
import type { HealthConditions } from "./health-conditions";
import type { WorkerState } from "./start-worker";

export interface WorkerHttpOptions {
  port: number;
  host: string;
  engine: RolloutEngine;
  inference: Pick<RoutedInferencePool, "listBackends">;
  workerId: string;
  state: () => WorkerState;
  /** What the worker's health depends on (store, sandboxes, …), as their watchers report it. */
  conditions: HealthConditions;
  /** Whether this worker reaches the database, exported as `raas_store_*`. Default: not exported. */
  storeHealth?: ControlPlaneStoreHealth;
}

export interface WorkerHttp {
  url: string;
  close(): Promise<void>;
}

/**
 * The worker's small HTTP port: `GET /health` (200 while it runs or drains, 503 once stopping or
 * while a condition that stops work fails; JSON with its id, state, pools, held sandboxes and
 * conditions) and `GET /metrics` (Prometheus: the engine's stage gauges and stage durations, the
 * backends it routes to, `raas_worker_draining`, `raas_worker_condition_ok`).
 */
export async function startWorkerHttp(options: WorkerHttpOptions): Promise<WorkerHttp> {
  const { engine, state, conditions } = options;
  // Job counters are the server's: this worker hears every process's job events through the bus.
  const metrics = new ControlPlaneMetrics({
    engine,
    backends: options.inference,
    countJobs: false,
    ...(options.storeHealth && { storeHealth: options.storeHealth }),
  });
  new Gauge({
    name: "raas_worker_draining",
    help: "1 while this worker drains (takes no new job), else 0.",
    registers: [metrics.registry],
    collect() {
      this.set(state() === "running" ? 0 : 1);
    },
  });
  new Gauge({
    name: "raas_worker_held_sandboxes",
    help: "Sandboxes this worker holds for jobs between their stages.",
    registers: [metrics.registry],
    collect() {
      this.set(engine.heldSandboxes);
    },
  });
  new Gauge({
    name: "raas_worker_condition_ok",
    help: "1 while a condition this worker depends on (store, sandboxes, …) is ok, else 0.",
    labelNames: ["condition"],
    registers: [metrics.registry],
    collect() {
      this.reset();
      for (const condition of conditions.list())
        this.set({ condition: condition.name }, condition.ok ? 1 : 0);
    },
  });
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { allow: "GET, HEAD", "content-type": "text/plain" }).end("method not allowed\n");
      return;
    }
    if (path === "/health") {
      const current = state();
      const { stages } = engine.stats();
      const body = {
        status: current,
        workerId: options.workerId,
        pools: stages,
        heldSandboxes: engine.heldSandboxes,
        healthy: !conditions.isUnhealthy(),
        conditions: Object.fromEntries(conditions.list().map(({ name, ...condition }) => [name, condition])),
      };
      const stopped = current === "stopping" || current === "stopped";
      const status = stopped || conditions.isUnhealthy() ? 503 : 200;
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      return;
    }
    if (path === "/metrics") {
      metrics.render().then(
        ({ body, contentType }) => res.writeHead(200, { "content-type": contentType }).end(body),
        () => res.writeHead(500, { "content-type": "text/plain" }).end("metrics unavailable\n"),
      );
      return;
    }
    res.writeHead(404, { "content-type": "text/plain" }).end("not found: /health and /metrics only\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${address.port}`,
    close: async () => {
      metrics.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
