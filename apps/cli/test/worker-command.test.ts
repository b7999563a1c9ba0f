// `raas worker` (what infra/ starts: node --import tsx → the CLI → apps/worker) against the real PostgreSQL and
// Redis on a fresh schema and key prefix: it starts a worker process of its own, and a SIGTERM
// sent to the top process reaches the worker, which drains, stops and exits 0.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "./support/start-server";

const DATABASE_URL = process.env.RAAS_TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const id = randomBytes(6).toString("hex");
const schema = `raas_test_${id}`;
const prefix = `raas-test-${id}`;

afterAll(async () => {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => client.end());
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 2 });
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe("raas worker", () => {
  it("runs apps/worker in its own process; SIGTERM to the command drains and stops it (exit 0)", async () => {
    // `node --import tsx`, as infra/ starts it: tsx's CLI would add a process whose signal relay
    // SIGKILLs its child when the child is slow (under load) to acknowledge a SIGTERM.
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(REPO_ROOT, "apps/cli/src/main.ts"), "worker"],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          DATABASE_URL: `${DATABASE_URL}?schema=${schema}`,
          RAAS_QUEUE: REDIS_URL,
          RAAS_QUEUE_PREFIX: prefix,
          RAAS_WORKER_POOLS: "run=1",
          RAAS_WORKER_METRICS_PORT: "0",
          LOG_LEVEL: "info",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const deadline = Date.now() + 90_000;
    while (!/RaaS worker \S+ running pools run=1;/.test(output)) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`worker did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const workerId = /RaaS worker (\S+) running/.exec(output)![1]!;
    const [host, pid] = workerId.split(":");
    expect(host).toBe(hostname());
    expect(Number(pid)).not.toBe(child.pid); // the worker runs in its own process

    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(output).toContain('"msg":"stop requested: draining, then stopping"');
    expect(output).toContain('"msg":"worker stopped"');
  }, 120_000);
});
