import {
  MAX_STORED_PREFETCH_REQUESTS,
  type TImagePrefetchRequest,
  type WorkerBeat,
  type WorkerRecord,
  type WorkerRegistration,
  type WorkerStore,
  ZImagePrefetchRequests,
  ZWorkerBackends,
  ZWorkerImages,
  ZWorkerPools,
} from "@raas/engine";
import { parseJsonColumn, toJsonColumn } from "../codec/json-column";
import { Prisma, type PrismaClient, type Worker as WorkerRow } from "../generated/client";

/** Statuses of a worker that is expected to heartbeat. */
const LIVE_STATUSES = ["active", "draining"];

/** The columns of `workers` as `markLost`'s `RETURNING` hands them back (no Prisma mapping). */
interface RawWorkerRow {
  id: string;
  hostname: string;
  pid: number;
  labels: string[] | null;
  pools: unknown;
  sandboxes: number;
  backends: unknown;
  status: string;
  started_at_ms: number;
  heartbeat_at_ms: number;
  stopped_at_ms: number | null;
  unhealthy_reason: string | null;
  images: unknown;
  prefetch_requests: unknown;
}

function fromRow(row: WorkerRow): WorkerRecord {
  const site = (column: string) => ({ table: "workers", column, rowId: row.id });
  return {
    ...row,
    labels: row.labels ?? [],
    pools: parseJsonColumn(ZWorkerPools, row.pools ?? {}, site("pools")),
    backends: parseJsonColumn(ZWorkerBackends, row.backends ?? [], site("backends")),
    images: row.images === null ? null : parseJsonColumn(ZWorkerImages, row.images, site("images")),
    prefetchRequests: parseJsonColumn(
      ZImagePrefetchRequests,
      row.prefetchRequests ?? [],
      site("prefetch_requests"),
    ),
    status: row.status as WorkerRecord["status"],
  };
}

function fromRawRow(row: RawWorkerRow): WorkerRecord {
  return fromRow({
    id: row.id,
    hostname: row.hostname,
    pid: Number(row.pid),
    labels: row.labels ?? [],
    pools: (typeof row.pools === "string" ? JSON.parse(row.pools) : row.pools) as Prisma.JsonValue,
    sandboxes: Number(row.sandboxes),
    backends: (typeof row.backends === "string"
      ? JSON.parse(row.backends)
      : row.backends) as Prisma.JsonValue,
    status: row.status,
    startedAtMs: Number(row.started_at_ms),
    heartbeatAtMs: Number(row.heartbeat_at_ms),
    stoppedAtMs: row.stopped_at_ms === null ? null : Number(row.stopped_at_ms),
    unhealthyReason: row.unhealthy_reason ?? null,
    images: (typeof row.images === "string" ? JSON.parse(row.images) : row.images) as Prisma.JsonValue,
    prefetchRequests: (typeof row.prefetch_requests === "string"
      ? JSON.parse(row.prefetch_requests)
      : row.prefetch_requests) as Prisma.JsonValue,
  });
}

/**
 * The `WorkerStore` of PGlite and PostgreSQL (table `workers`). Shares the job store's client:
 * `new PrismaWorkerStore(jobStore.prisma)`; closing is the job store's business. Status changes are
 * conditional updates, so a heartbeat never revives a worker already marked lost or stopped, and
 * `markLost` is one `UPDATE … WHERE status IN (active, draining) … RETURNING`: PostgreSQL locks each
 * row it changes and re-checks the condition after waiting, so of several servers racing, exactly
 * one gets each lost worker.
 */
export class PrismaWorkerStore implements WorkerStore {
  readonly #prisma: PrismaClient;

  constructor(prisma: PrismaClient) {
    this.#prisma = prisma;
  }

  async register(worker: WorkerRegistration): Promise<void> {
    const data = {
      ...worker,
      labels: [...worker.labels],
      pools: toJsonColumn(worker.pools),
      backends: toJsonColumn(worker.backends ?? []),
      images: worker.images ? toJsonColumn(worker.images) : Prisma.DbNull,
      status: "active",
      unhealthyReason: null,
      stoppedAtMs: null,
    };
    await this.#prisma.worker.upsert({ where: { id: worker.id }, create: data, update: data });
  }

  async heartbeat(workerId: string, beat: WorkerBeat): Promise<WorkerRecord | null> {
    await this.#prisma.worker.updateMany({
      where: { id: workerId, status: { in: LIVE_STATUSES } },
      data: {
        pools: toJsonColumn(beat.pools),
        sandboxes: beat.sandboxes,
        ...(beat.backends && { backends: toJsonColumn(beat.backends) }),
        ...(beat.unhealthyReason !== undefined && { unhealthyReason: beat.unhealthyReason }),
        ...(beat.images && { images: toJsonColumn(beat.images) }),
        heartbeatAtMs: beat.atMs,
      },
    });
    return this.get(workerId);
  }

  async setDraining(workerId: string, draining: boolean): Promise<WorkerRecord | null> {
    await this.#prisma.worker.updateMany({
      where: { id: workerId, status: { in: LIVE_STATUSES } },
      data: { status: draining ? "draining" : "active" },
    });
    return this.get(workerId);
  }

  async markStopped(workerId: string, atMs: number): Promise<void> {
    await this.#prisma.worker.updateMany({
      where: { id: workerId },
      data: { status: "stopped", stoppedAtMs: atMs },
    });
  }

  async markLost(beforeMs: number, exceptIds: readonly string[] = []): Promise<WorkerRecord[]> {
    const rows = await this.#prisma.$queryRaw<RawWorkerRow[]>`
      UPDATE "workers" SET "status" = 'lost'
      WHERE "status" IN ('active', 'draining') AND "heartbeat_at_ms" < ${beforeMs}
        AND NOT ("id" = ANY(${[...exceptIds]}::text[]))
      RETURNING *`;
    return rows.map(fromRawRow);
  }

  async requestPrefetch(workerIds: readonly string[], request: TImagePrefetchRequest): Promise<string[]> {
    // One statement per worker: the append and the trim happen under the row's lock, so a
    // request made at the same time by another server is never lost.
    const rows = await this.#prisma.$queryRaw<Array<{ id: string }>>`
      UPDATE "workers" SET "prefetch_requests" = (
        SELECT COALESCE(jsonb_agg(item ORDER BY position), '[]'::jsonb) FROM (
          SELECT item, position FROM jsonb_array_elements("prefetch_requests" || ${JSON.stringify([request])}::jsonb)
            WITH ORDINALITY AS elements(item, position)
          ORDER BY position DESC LIMIT ${MAX_STORED_PREFETCH_REQUESTS}
        ) AS kept
      )
      WHERE "id" = ANY(${[...workerIds]}::text[]) AND "status" IN ('active', 'draining')
      RETURNING "id"`;
    return rows.map((row) => row.id);
  }

  async get(workerId: string): Promise<WorkerRecord | null> {
    const row = await this.#prisma.worker.findUnique({ where: { id: workerId } });
    return row ? fromRow(row) : null;
  }

  async list(options: { includeStopped?: boolean } = {}): Promise<WorkerRecord[]> {
    const rows = await this.#prisma.worker.findMany({
      where: options.includeStopped ? {} : { status: { not: "stopped" } },
      orderBy: [{ startedAtMs: "asc" }, { id: "asc" }],
    });
    return rows.map(fromRow);
  }
}
