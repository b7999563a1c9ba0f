import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createSleepHandler,
  HandlerRegistry,
  MemoryJobQueue,
  MemoryJobStore,
  RolloutEngine,
  StoreHealth,
} from "@raas/engine";
import { afterEach, describe, expect, it } from "vitest";
import { createControlPlaneHandler } from "../src/index";

const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

describe("/health and /metrics report the store's reachability", () => {
  let server: Server | undefined;
  let engine: RolloutEngine | undefined;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await engine?.stop();
  });

  it("says the database is unreachable during an outage, and counts outages", async () => {
    const storeHealth = new StoreHealth();
    engine = new RolloutEngine({
      store: new MemoryJobStore(),
      queue: new MemoryJobQueue(),
      handlers: new HandlerRegistry().register(createSleepHandler()),
      storeHealth,
    });
    await engine.start();
    const handler = createControlPlaneHandler({
      engine,
      auth: { adminToken: "a", trainerToken: "t", viewerToken: "v", requireViewerToken: false },
      collectProcessMetrics: false,
      storeHealth,
    });
    server = createServer(handler);
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const read = async () => ({
      health: (await (await fetch(`${url}/health`)).json()) as { status: string; store: unknown },
      metrics: await (await fetch(`${url}/metrics`)).text(),
    });

    expect((await read()).health.store).toMatchObject({ available: true, reason: null, outages: 0 });
    storeHealth.reportFailure(refused);
    const during = await read();
    expect(during.health).toMatchObject({
      status: "ok",
      store: {
        available: false,
        reason: "store unreachable: connect ECONNREFUSED 127.0.0.1:5432",
        outages: 1,
      },
    });
    expect(during.metrics).toMatch(/^raas_store_available 0$/m);
    expect(during.metrics).toMatch(/^raas_store_outages_total 1$/m);
    expect(during.metrics).toMatch(/^raas_store_connection_errors_total 1$/m);
    storeHealth.reportReachable();
    const after = await read();
    expect(after.health.store).toMatchObject({ available: true, outages: 1 });
    expect(after.metrics).toMatch(/^raas_store_available 1$/m);
    expect(after.metrics).toMatch(/^raas_store_unavailable_seconds_total \d/m);
  });
});
