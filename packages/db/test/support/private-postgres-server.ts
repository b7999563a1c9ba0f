import { spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort, isAlive, sleep, stopByPid } from "../../../shared/test/support/local-process";

/** The newest PostgreSQL server binaries Debian installed (`/usr/lib/postgresql/<major>/bin`). */
function postgresBinDir(): string {
  const root = "/usr/lib/postgresql";
  const majors = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, "bin", "postgres")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const major = majors[0];
  if (major === undefined) {
    throw new Error("PostgreSQL server binaries not found: apt-get install -y postgresql");
  }
  return join(root, major, "bin");
}

/** PostgreSQL refuses to run as root: as root, its commands run as the `postgres` user. */
function asServerUser(command: string, args: string[]): ReturnType<typeof spawnSync> {
  const isRoot = process.getuid?.() === 0;
  const [file, argv] = isRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
  return spawnSync(file, argv, { encoding: "utf8" });
}

/**
 * A PostgreSQL server of the test's own (its own data directory, port and socket directory, trust
 * auth), for tests that stop and restart the database: the shared one on 5432 is never touched.
 * `stop("immediate")` is `pg_ctl -m immediate stop` (a crash as clients see it: every connection
 * is cut); it is stopped by the pid its `postmaster.pid` names. Start-up ≈ 1–2 s after the first
 * `initdb` (≈ 2–4 s).
 */
export class PrivatePostgresServer {
  readonly #bin = postgresBinDir();
  readonly #dir = mkdtempSync(join(tmpdir(), "raas-pg-"));
  readonly #dataDir = join(this.#dir, "data");
  readonly #logFile = join(this.#dir, "postgres.log");

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivatePostgresServer> {
    const server = new PrivatePostgresServer(await freePort());
    server.#init();
    await server.start();
    return server;
  }

  /** Connection URL of its `postgres` database as the `postgres` user. */
  get url(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** The URL selecting a schema of its own (`?schema=`), as the stores take it. */
  urlWithSchema(schema: string): string {
    return `${this.url}?schema=${schema}`;
  }

  /** The postmaster's pid while it runs, else 0. */
  get pid(): number {
    const pidFile = join(this.#dataDir, "postmaster.pid");
    if (!existsSync(pidFile)) return 0;
    const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]?.trim()) || 0;
    return pid && isAlive(pid) ? pid : 0;
  }

  #init(): void {
    if (process.getuid?.() === 0) {
      const pw = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
      const gw = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
      if (pw.status !== 0)
        throw new Error("no postgres user to run PostgreSQL as: apt-get install -y postgresql");
      chownSync(this.#dir, Number(pw.stdout.trim()), Number(gw.stdout.trim()));
      chmodSync(this.#dir, 0o700);
    }
    const args = ["-D", this.#dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"];
    const result = asServerUser(join(this.#bin, "initdb"), args);
    if (result.status !== 0) throw new Error(`initdb failed: ${result.stderr}${result.stdout}`);
  }

  async start(): Promise<void> {
    if (this.pid) return;
    const options = [
      `-p ${this.port}`,
      "-c listen_addresses=127.0.0.1",
      `-c unix_socket_directories=${this.#dir}`,
      "-c fsync=off",
      "-c full_page_writes=off",
      "-c max_connections=200",
    ].join(" ");
    const args = ["-D", this.#dataDir, "-l", this.#logFile, "-o", options, "-w", "-t", "60", "start"];
    const result = asServerUser(join(this.#bin, "pg_ctl"), args);
    if (result.status !== 0) {
      const log = existsSync(this.#logFile) ? readFileSync(this.#logFile, "utf8").slice(-2_000) : "";
      throw new Error(
        `PostgreSQL on port ${this.port} did not start: ${result.stderr}${result.stdout}\n${log}`,
      );
    }
    for (let i = 0; ; i += 1) {
      const client = new pg.Client({ connectionString: this.url });
      client.on("error", () => {});
      try {
        await client.connect();
        await client.query("SELECT 1");
        return;
      } catch (error) {
        if (i >= 200) throw error;
        await sleep(50);
      } finally {
        await client.end().catch(() => {});
      }
    }
  }

  /**
   * Stops it: `immediate` cuts every connection at once (no checkpoint, like a crash); `fast`
   * ends sessions and shuts down cleanly. Waits until the postmaster is gone.
   */
  async stop(mode: "immediate" | "fast" = "fast"): Promise<void> {
    const pid = this.pid;
    if (pid) await stopByPid(pid, mode === "immediate" ? "SIGQUIT" : "SIGINT", 15_000);
  }

  /** Stops it (`immediate` by default), waits `downMs`, starts it again on the same port and data. */
  async restart(options: { mode?: "immediate" | "fast"; downMs?: number } = {}): Promise<void> {
    await this.stop(options.mode ?? "immediate");
    if (options.downMs) await sleep(options.downMs);
    await this.start();
  }

  async dispose(): Promise<void> {
    await this.stop("immediate");
    rmSync(this.#dir, { recursive: true, force: true });
  }
}
