import {
  foldSandboxEvents,
  type HostSandboxClosure,
  hostClosureEvents,
  OPEN_SANDBOX_STATES,
  type SandboxEventFilter,
  type SandboxEventRecord,
  type SandboxEventStore,
  type SandboxRecord,
  type SandboxSummary,
  type SandboxSummaryFilter,
  sandboxSummaryOf,
} from "@raas/engine";
import { type TSandboxState, ZSandboxEvent } from "@raas/shared";
import { parseJsonColumn } from "../codec/json-column";
import { Prisma, type PrismaClient, type Sandbox as SandboxRow } from "../generated/client";

const DEFAULT_EVENT_LIMIT = 100;

function fromSandboxRow(row: SandboxRow): SandboxRecord {
  const { state, ...rest } = row;
  return { ...rest, state: state as TSandboxState };
}

function eventWhere(filter: SandboxEventFilter): Prisma.SandboxEventWhereInput {
  return {
    ...(filter.jobId !== undefined && { jobId: filter.jobId }),
    ...(filter.sandboxId !== undefined && { sandboxId: filter.sandboxId }),
    ...(filter.hostId !== undefined && { hostId: filter.hostId }),
    ...(filter.type !== undefined && { type: filter.type }),
    ...(filter.sinceMs !== undefined && { atMs: { gte: filter.sinceMs } }),
  };
}

function countsOf<K extends string>(
  groups: ReadonlyArray<Record<K, string | null> & { _count: { _all: number } }>,
  key: K,
): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const group of groups) {
    const value = group[key];
    if (value !== null) counts[value] = group._count._all;
  }
  return counts;
}

function roundMs(value: number | null): number | null {
  return value === null ? null : Math.round(value * 100) / 100;
}

/**
 * The `SandboxEventStore` of PGlite and PostgreSQL. Each batch of events is one transaction: the
 * events are appended to `sandbox_events`, and the rows of the sandboxes they touch are folded
 * (`foldSandboxEvents`) and replaced in `sandboxes`. A failed batch leaves nothing behind, so the
 * recorder may retry it. Shares the job store's client; closing is the job store's business.
 */
export class PrismaSandboxEventStore implements SandboxEventStore {
  readonly #prisma: PrismaClient;

  constructor(prisma: PrismaClient) {
    this.#prisma = prisma;
  }

  async appendEvents(events: readonly SandboxEventRecord[]): Promise<void> {
    if (events.length === 0) return;
    const ids = [...new Set(events.map((event) => event.sandboxId))];
    const stored = await this.#prisma.sandbox.findMany({ where: { id: { in: ids } } });
    const rows = foldSandboxEvents(new Map(stored.map((row) => [row.id, fromSandboxRow(row)])), events);
    await this.#prisma.$transaction([
      this.#prisma.sandboxEvent.createMany({
        data: events.map((event) => ({
          sandboxId: event.sandboxId,
          jobId: event.jobId,
          hostId: event.hostId,
          type: event.type,
          state: event.state,
          detail: event.detail === null ? Prisma.DbNull : (event.detail as Prisma.InputJsonObject),
          atMs: event.atMs,
        })),
      }),
      this.#prisma.sandbox.deleteMany({ where: { id: { in: ids } } }),
      this.#prisma.sandbox.createMany({ data: [...rows.values()] }),
    ]);
  }

  async listEvents(filter: SandboxEventFilter = {}): Promise<SandboxEventRecord[]> {
    const rows = await this.#prisma.sandboxEvent.findMany({
      where: eventWhere(filter),
      orderBy: [{ atMs: "desc" }, { id: "desc" }],
      take: filter.limit ?? DEFAULT_EVENT_LIMIT,
    });
    return rows.map((row) => ({
      sandboxId: row.sandboxId,
      jobId: row.jobId,
      hostId: row.hostId,
      type: row.type,
      state: row.state as TSandboxState,
      detail: parseJsonColumn(ZSandboxEvent.shape.detail, row.detail, {
        table: "sandbox_events",
        column: "detail",
        rowId: String(row.id),
      }),
      atMs: row.atMs,
    }));
  }

  async getSandbox(id: string): Promise<SandboxRecord | null> {
    const row = await this.#prisma.sandbox.findUnique({ where: { id } });
    return row ? fromSandboxRow(row) : null;
  }

  async summarize(filter: SandboxSummaryFilter = {}): Promise<SandboxSummary> {
    const where: Prisma.SandboxWhereInput = {
      ...(filter.hostId !== undefined && { hostId: filter.hostId }),
      ...(filter.sinceMs !== undefined && { createdAtMs: { gte: filter.sinceMs } }),
    };
    const [byState, byCloseReason, totals, limitRows] = await Promise.all([
      this.#prisma.sandbox.groupBy({ by: ["state"], where, _count: { _all: true } }),
      this.#prisma.sandbox.groupBy({ by: ["closeReason"], where, _count: { _all: true } }),
      this.#prisma.sandbox.aggregate({
        where,
        _count: { _all: true },
        _avg: { readyMs: true, lifetimeMs: true },
      }),
      // Limit kinds live in the events' JSON detail, which Prisma cannot group by.
      this.#prisma.$queryRawUnsafe<Array<{ kind: string; hits: number }>>(
        `SELECT COALESCE(e."detail"->>'limit', 'unknown') AS "kind", count(*)::int AS "hits"
           FROM "sandbox_events" e JOIN "sandboxes" s ON s."id" = e."sandbox_id"
          WHERE e."type" = 'limit_hit'
            AND ($1::double precision IS NULL OR s."created_at_ms" >= $1::double precision)
            AND ($2::text IS NULL OR s."host_id" = $2::text)
          GROUP BY 1`,
        // As text: Prisma refuses to serialize a whole number past 2^53 (e.g. 1e16) as a raw parameter.
        filter.sinceMs === undefined ? null : String(filter.sinceMs),
        filter.hostId ?? null,
      ),
    ]);
    return sandboxSummaryOf({
      sandboxes: totals._count._all,
      byState: countsOf(byState, "state"),
      byCloseReason: countsOf(byCloseReason, "closeReason"),
      limitHits: Object.fromEntries(limitRows.map((row) => [row.kind, Number(row.hits)])),
      meanReadyMs: roundMs(totals._avg.readyMs),
      meanLifetimeMs: roundMs(totals._avg.lifetimeMs),
    });
  }

  async listOpenHostIds(): Promise<string[]> {
    const rows = await this.#prisma.sandbox.findMany({
      where: { state: { in: [...OPEN_SANDBOX_STATES] }, hostId: { not: null } },
      distinct: ["hostId"],
      select: { hostId: true },
    });
    return rows.flatMap((row) => (row.hostId === null ? [] : [row.hostId]));
  }

  async closeHostSandboxes(hostId: string, closure: HostSandboxClosure): Promise<string[]> {
    const open = await this.#prisma.sandbox.findMany({
      where: { hostId, state: { in: [...OPEN_SANDBOX_STATES] } },
    });
    const events = hostClosureEvents(open.map(fromSandboxRow), hostId, closure);
    await this.appendEvents(events);
    return events.map((event) => event.sandboxId);
  }
}
