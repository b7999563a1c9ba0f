import pg from "pg";
import type { DbLogger } from "../db-logger.types";

/** What the pool tells about its connections (a `StoreHealth` from `@raas/engine` fits). */
export interface ConnectionHealthSink {
  /** A connection to the server was opened. */
  reportReachable(): void;
  /** A connection failed to open or broke. */
  reportFailure(error: unknown): boolean;
}

type ConnectCallback = (
  error: Error | undefined,
  client: pg.PoolClient | undefined,
  release: (error?: Error | boolean) => void,
) => void;

export interface GuardedPoolOptions {
  health?: ConnectionHealthSink;
  logger?: DbLogger;
}

/**
 * A `pg` pool that survives its server going away (a restart, a failover):
 *
 * - every client carries an `error` listener for its whole life. `pg` emits `error` on a client
 *   whose connection breaks even while a query or transaction holds it, and the pool listens only
 *   to idle clients — a connection cut under a checked-out client (a transaction of the job
 *   store or of Prisma) was an unhandled `error` event, which ends the process;
 * - a client whose connection ends while checked out gives its slot back at once. Prisma's
 *   transaction manager releases its client only after a successful ROLLBACK, so a transaction
 *   cut by an outage kept its slot forever, and a few outages left a pool with none;
 * - releasing a client twice is harmless (the second is ignored), as the slot may already have
 *   been given back when the connection ended;
 * - every connection opened and every connection lost is reported to `health`.
 */
export class GuardedPool extends pg.Pool {
  readonly #health: ConnectionHealthSink | undefined;
  readonly #logger: DbLogger | undefined;

  constructor(config: pg.PoolConfig, options: GuardedPoolOptions = {}) {
    super(config);
    this.#health = options.health;
    this.#logger = options.logger;
    this.on("connect", (client) => {
      this.#health?.reportReachable();
      client.on("error", (error) => this.#connectionLost(error));
    });
    // Idle clients' errors come here too (after the client's own listener): nothing more to do.
    this.on("error", () => {});
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | undefined {
    if (!callback) {
      return new Promise((resolve, reject) =>
        this.connect((error, client) => (error || !client ? reject(error) : resolve(client))),
      );
    }
    super.connect((error, client, release) => {
      if (error || !client) {
        this.#health?.reportFailure(error);
        callback(error, client, release);
        return;
      }
      callback(undefined, client, this.#guard(client));
    });
    return undefined;
  }

  #guard(client: pg.PoolClient): (error?: Error | boolean) => void {
    const poolRelease = client.release;
    let isReleased = false;
    const release = (error?: Error | boolean) => {
      if (isReleased) return;
      isReleased = true;
      client.removeListener("end", onEnd);
      poolRelease(error);
    };
    const onEnd = () => release(new Error("connection ended while checked out"));
    client.once("end", onEnd);
    client.release = release;
    return release;
  }

  #connectionLost(error: Error): void {
    this.#health?.reportFailure(error);
    this.#logger?.debug({ err: error.message }, "PostgreSQL connection lost");
  }
}
