import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createJobStore } from "@raas/db";
import type { JobStore } from "@raas/engine";
import type { TJob } from "@raas/shared";
import { PrivatePostgresServer } from "../../../../../packages/db/test/support/private-postgres-server";
import { PrivateRedisServer } from "../../../../../packages/queue/test/support/private-redis-server";
import { type FreshSchema, freshSchema, privateSchema } from "./fresh-schema";
import { JobLedger } from "./job-ledger";
import { RaasProcess } from "./raas-process";

const SERVER_ENTRY = fileURLToPath(new URL("../../../src/main.ts", import.meta.url));
export const ADMIN_TOKEN = "fault-test-admin";

/** A server process of a deployment: its URL and a REST helper with the admin token. */
export interface ServerHandle {
  proc: RaasProcess;
  url: string;
  rest<T>(path: string, body?: unknown): Promise<T>;
}

/**
 * One distributed deployment of a test: a private redis-server (restartable, no persistence), a
 * fresh PostgreSQL schema and key prefix, the server as a child process, a ledger of every job
 * event on the bus and a store to read final states from. `dispose()` stops and removes it all.
 */
export class Deployment {
  readonly processes: RaasProcess[] = [];
  #store: JobStore | null = null;

  private constructor(
    readonly redis: PrivateRedisServer,
    readonly schema: FreshSchema,
    /** Key and channel prefix of this deployment (`RAAS_QUEUE_PREFIX`). */
    readonly prefix: string,
    readonly ledger: JobLedger,
    /** The deployment's own PostgreSQL server (`start({ privatePostgres: true })`), to stop and restart. */
    readonly postgres: PrivatePostgresServer | null,
  ) {}

  /**
   * `privatePostgres`: a PostgreSQL server of the deployment's own (for tests that stop the
   * database); else a fresh schema on the machine's shared PostgreSQL.
   */
  static async start(options: { privatePostgres?: boolean } = {}): Promise<Deployment> {
    const redis = await PrivateRedisServer.start();
    const postgres = options.privatePostgres ? await PrivatePostgresServer.start() : null;
    const schema = postgres ? privateSchema(postgres) : freshSchema();
    const prefix = `raas-fault-${randomUUID().slice(0, 8)}`;
    const ledger = await JobLedger.open({ url: redis.url, prefix });
    return new Deployment(redis, schema, prefix, ledger, postgres);
  }

  /** What every process of the deployment shares: store, queue, key prefix, quiet logs. */
  sharedEnv(): Record<string, string> {
    return {
      DATABASE_URL: this.schema.databaseUrl,
      RAAS_QUEUE: this.redis.url,
      RAAS_QUEUE_PREFIX: this.prefix,
      LOG_LEVEL: "info",
    };
  }

  /** The server in distributed mode; API-only unless `env` gives it pools. */
  async startServer(env: Record<string, string> = {}): Promise<ServerHandle> {
    const proc = RaasProcess.start({
      name: "server",
      entry: SERVER_ENTRY,
      env: {
        ...this.sharedEnv(),
        PORT: "0",
        RAAS_STORE: "db",
        RAAS_ADMIN_TOKEN: ADMIN_TOKEN,
        RAAS_SERVER_POOLS: "none",
        RAAS_SHUTDOWN_GRACE_MS: "2000",
        ...env,
      },
    });
    this.processes.push(proc);
    const line = await proc.waitForLine(/listening on (http\S+)/, 120_000);
    const url = (/listening on (http\S+)/.exec(line) as RegExpExecArray)[1] as string;
    return { proc, url, rest: (path, body) => rest(url, path, body) };
  }

  /** The deployment's store, opened on first use (after the server migrated the schema). */
  async store(): Promise<JobStore> {
    this.#store ??= await createJobStore({ databaseUrl: this.schema.databaseUrl, maxConnections: 2 });
    return this.#store;
  }

  /** Each job's stored state (after every process stopped writing, its final one). */
  async storedJobs(ids: readonly string[]): Promise<TJob[]> {
    const store = await this.store();
    const jobs: TJob[] = [];
    for (const id of ids) {
      const job = await store.getJob(id);
      if (!job) throw new Error(`job ${id} is not in the store`);
      jobs.push(job);
    }
    return jobs;
  }

  async dispose(): Promise<void> {
    await Promise.all(this.processes.map((proc) => proc.stop(5_000)));
    await this.ledger.close();
    await this.#store?.close();
    await this.redis.dispose();
    if (this.postgres) await this.postgres.dispose();
    else await this.schema.drop();
  }
}

async function rest<T>(url: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/** Submits sleep jobs over REST; returns their ids in order. */
export async function submitSleepJobs(
  server: ServerHandle,
  count: number,
  payload: { initMs: number; runMs: number; evalMs: number },
): Promise<string[]> {
  const jobs = Array.from({ length: count }, () => ({ kind: "sleep", payload }));
  const { results } = await server.rest<{ results: Array<{ job: TJob }> }>("/api/v1/jobs/batch", { jobs });
  return results.map((result) => result.job.id);
}

/**
 * Polls until `check` holds; the bound only stops a broken run from hanging. `what` may be a
 * function, read at the time-out, to say what was still missing.
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string | (() => string),
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${typeof what === "string" ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
