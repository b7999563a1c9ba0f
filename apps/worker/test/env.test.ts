import { describe, expect, it } from "vitest";
import { EnvError, parseWorkerEnv } from "../src/env";
import { workerConfigFromEnv } from "../src/worker-config";

const BASE = { DATABASE_URL: "postgresql://raas@db:5432/raas", RAAS_QUEUE: "redis://redis:6379" };
const errorOf = (source: Record<string, string>) => {
  try {
    parseWorkerEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error("expected an EnvError");
};

describe("the worker's environment", () => {
  it("maps the infra/ interface onto the config: pools, labels, metrics port, queue prefix, backends", () => {
    const config = workerConfigFromEnv(
      parseWorkerEnv({
        ...BASE,
        RAAS_QUEUE_PREFIX: "team-a",
        RAAS_WORKER_POOLS: "init=16,run=64",
        RAAS_WORKER_LABELS: "apptainer,node-7",
        RAAS_RUN_TIMEOUT_MS: "60000",
        RAAS_BACKENDS: "vllm=http://gpu-1:8000",
      }),
    );
    expect(config).toMatchObject({
      databaseUrl: BASE.DATABASE_URL,
      queue: { url: BASE.RAAS_QUEUE, prefix: "team-a" },
      pools: {
        init: { concurrency: 16 },
        run: { concurrency: 64, timeoutMs: 60_000 },
        eval: { concurrency: 0 },
      },
      labels: ["apptainer", "node-7"],
      http: { port: 9464, host: "0.0.0.0" },
      stopGraceMs: 225_000,
      storeWaitMs: 60_000,
      sandboxHealth: { failuresBeforeProbe: 3, probeIntervalMs: 30_000 },
    });
    expect(
      workerConfigFromEnv(
        parseWorkerEnv({ ...BASE, RAAS_WORKER_SANDBOX_FAILURES: "5", RAAS_WORKER_SANDBOX_PROBE_MS: "2000" }),
      ).sandboxHealth,
    ).toEqual({ failuresBeforeProbe: 5, probeIntervalMs: 2_000 });
    expect(config.inference.backends).toEqual([
      { kind: "vllm", baseUrl: "http://gpu-1:8000", modelName: null },
    ]);
  });

  it("runs every pool at the engine's sizes when RAAS_WORKER_POOLS is unset", () => {
    const { pools } = workerConfigFromEnv(parseWorkerEnv(BASE));
    expect(pools).toEqual({ init: {}, run: {}, eval: {} });
  });

  it("refuses to start without the shared PostgreSQL and Redis, saying why", () => {
    const message = errorOf({});
    expect(message).toContain(
      "DATABASE_URL: required — a worker must share the server's PostgreSQL database",
    );
    expect(message).toContain("RAAS_QUEUE: required");
    expect(errorOf({ RAAS_QUEUE: BASE.RAAS_QUEUE })).toContain(
      "RAAS_QUEUE: distributed mode needs DATABASE_URL=postgres://",
    );
  });

  it("names each bad variable, hiding URLs that may hold passwords", () => {
    const message = errorOf({
      DATABASE_URL: "mysql://root:secret@db/raas",
      RAAS_QUEUE: "http://:secret@redis:6379",
      RAAS_WORKER_POOLS: "init=2,gpu=1",
      RAAS_WORKER_METRICS_PORT: "70000",
    });
    expect(message).toContain("DATABASE_URL: expected a postgres:// or postgresql:// URL (value hidden)");
    expect(message).toContain("RAAS_QUEUE: expected a redis:// or rediss:// URL (value hidden)");
    expect(message).toContain('"gpu=1": expected stage=concurrency');
    expect(message).toContain("RAAS_WORKER_METRICS_PORT");
    expect(message).not.toContain("secret");
    expect(errorOf({ ...BASE, RAAS_WORKER_POOLS: "none" })).toContain(
      "RAAS_WORKER_POOLS: a worker runs at least one pool",
    );
  });
});
