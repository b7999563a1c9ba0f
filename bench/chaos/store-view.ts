// The bench's read-only view of the deployment's PostgreSQL: job states for the workload's
// progress, turn counts and open sandbox records for the audit. Plain SQL on its own small pool,
// so it works (or fails, and says so) while the processes under test ride out an outage.
import pg from "pg";

export interface StoredJobRow {
  id: string;
  status: string;
  finishedAtMs: number | null;
  updatedAtMs: number;
  failureKind: string | null;
  reward: number | null;
}

export interface OpenSandboxRow {
  id: string;
  jobId: string | null;
  hostId: string | null;
  state: string;
  createdAtMs: number;
}

export class StoreView {
  readonly #pool: pg.Pool;

  constructor(
    databaseUrl: string,
    private readonly schema: string,
  ) {
    const url = new URL(databaseUrl);
    url.searchParams.delete("schema");
    this.#pool = new pg.Pool({
      connectionString: url.toString(),
      max: 2,
      connectionTimeoutMillis: 3_000,
      query_timeout: 10_000,
    });
    // A restart of the server cuts idle clients: the pool drops them and connects anew.
    this.#pool.on("error", () => {});
  }

  async jobs(ids: readonly string[]): Promise<StoredJobRow[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.#pool.query<{
      id: string;
      status: string;
      finished_at_ms: number | null;
      updated_at_ms: number;
      failure_kind: string | null;
      reward: number | null;
    }>(
      `SELECT id, status, finished_at_ms, updated_at_ms, failure_kind, reward FROM "${this.schema}".jobs WHERE id = ANY($1::text[])`,
      [ids],
    );
    return rows.map((row) => ({
      id: row.id,
      status: row.status,
      finishedAtMs: row.finished_at_ms,
      updatedAtMs: row.updated_at_ms,
      failureKind: row.failure_kind,
      reward: row.reward,
    }));
  }

  /** Stored turns per job (a trajectory doubled by a second run of RUN shows more than it should). */
  async turnCounts(ids: readonly string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const { rows } = await this.#pool.query<{ job_id: string; turns: string }>(
      `SELECT job_id, count(*) AS turns FROM "${this.schema}".turns WHERE job_id = ANY($1::text[]) GROUP BY job_id`,
      [ids],
    );
    return new Map(rows.map((row) => [row.job_id, Number(row.turns)]));
  }

  /** Sandbox records not closed: `starting`, `ready`, `busy`, `closing`. */
  async openSandboxes(): Promise<OpenSandboxRow[]> {
    const { rows } = await this.#pool.query<{
      id: string;
      job_id: string | null;
      host_id: string | null;
      state: string;
      created_at_ms: number;
    }>(
      `SELECT id, job_id, host_id, state, created_at_ms FROM "${this.schema}".sandboxes WHERE state NOT IN ('closed', 'failed')`,
    );
    return rows.map((row) => ({
      id: row.id,
      jobId: row.job_id,
      hostId: row.host_id,
      state: row.state,
      createdAtMs: row.created_at_ms,
    }));
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
