import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { freePort, sleep, stopByPid } from "../../../shared/test/support/local-process";

/**
 * A redis-server of the test's own (no persistence, its own port and pid file), for tests that
 * restart Redis: the shared one on 6379 is never touched. Stopped by the pid it wrote.
 */
export class PrivateRedisServer {
  readonly #dir = mkdtempSync(join(tmpdir(), "raas-redis-"));
  readonly #pidFile = join(this.#dir, "redis.pid");
  #pid = 0;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedisServer> {
    const server = new PrivateRedisServer(await freePort());
    await server.start();
    return server;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const args = ["--port", String(this.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
    args.push("--daemonize", "yes", "--pidfile", this.#pidFile, "--dir", this.#dir, "--logfile", "");
    const result = spawnSync("redis-server", args, { encoding: "utf8" });
    if (result.error && (result.error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new Error("redis-server is not installed: apt-get install -y redis-server");
    }
    if (result.status !== 0) throw new Error(`redis-server did not start: ${result.stderr}${result.stdout}`);
    for (let i = 0; i < 200 && !this.#pid; i += 1) {
      if (existsSync(this.#pidFile)) this.#pid = Number(readFileSync(this.#pidFile, "utf8").trim()) || 0;
      if (!this.#pid) await sleep(25);
    }
    if (!this.#pid) throw new Error(`redis-server on port ${this.port} wrote no pid file`);
    const probe = new Redis(this.url, { maxRetriesPerRequest: null, retryStrategy: () => 25 });
    try {
      await probe.ping();
    } finally {
      probe.disconnect();
    }
  }

  /** Stops it by its own pid (SIGTERM; no persistence, so all data is gone). */
  async stop(): Promise<void> {
    const pid = this.#pid;
    if (!pid) return;
    this.#pid = 0;
    await stopByPid(pid, "SIGTERM", 10_000);
    rmSync(this.#pidFile, { force: true });
  }

  async restart(): Promise<void> {
    await this.stop();
    await this.start();
  }

  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
