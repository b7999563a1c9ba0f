import type { EnvironmentRecord, EnvironmentStore, NewEnvironment, OracleCheckRecord } from "@raas/engine";
import { type Environment as EnvironmentRow, Prisma, type PrismaClient } from "../generated/client";

function fromRow(row: EnvironmentRow): EnvironmentRecord {
  return {
    name: row.name,
    kind: row.kind,
    path: row.path,
    description: row.description,
    taskCount: row.taskCount,
    oracle: (row.oracle ?? null) as OracleCheckRecord | null,
    createdAtMs: row.createdAtMs,
    updatedAtMs: row.updatedAtMs,
  };
}

/**
 * The `EnvironmentStore` of PGlite and PostgreSQL (table `environments`). Shares the job store's
 * client: `new PrismaEnvironmentStore(jobStore.prisma)`. A save over an environment whose path or
 * kind changed drops its oracle check in the same transaction (it was of other tasks).
 */
export class PrismaEnvironmentStore implements EnvironmentStore {
  readonly #prisma: PrismaClient;

  constructor(prisma: PrismaClient) {
    this.#prisma = prisma;
  }

  async save(environment: NewEnvironment, atMs: number): Promise<EnvironmentRecord> {
    const data = {
      kind: environment.kind,
      path: environment.path,
      description: environment.description,
      taskCount: environment.taskCount,
      updatedAtMs: atMs,
    };
    const row = await this.#prisma.$transaction(async (tx) => {
      const existing = await tx.environment.findUnique({ where: { name: environment.name } });
      const isSameSource = existing?.path === environment.path && existing.kind === environment.kind;
      return tx.environment.upsert({
        where: { name: environment.name },
        create: { name: environment.name, ...data, createdAtMs: atMs },
        update: isSameSource ? data : { ...data, oracle: Prisma.DbNull },
      });
    });
    return fromRow(row);
  }

  async get(name: string): Promise<EnvironmentRecord | null> {
    const row = await this.#prisma.environment.findUnique({ where: { name } });
    return row ? fromRow(row) : null;
  }

  async list(): Promise<EnvironmentRecord[]> {
    const rows = await this.#prisma.environment.findMany({ orderBy: { name: "asc" } });
    return rows.map(fromRow);
  }

  async recordOracle(
    name: string,
    oracle: OracleCheckRecord,
    atMs: number,
  ): Promise<EnvironmentRecord | null> {
    const updated = await this.#prisma.environment.updateMany({
      where: { name },
      data: { oracle: { ...oracle, rows: oracle.rows.map((row) => ({ ...row })) }, updatedAtMs: atMs },
    });
    return updated.count === 0 ? null : this.get(name);
  }
}
