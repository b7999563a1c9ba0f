import type {
  BackendRegistrationStore,
  InferenceBackendKind,
  StoredBackend,
  StoredBackendRecord,
  TStoredBackendState,
} from "@raas/engine";
import { DEFAULT_POLICY_ID } from "@raas/shared";
import type { Backend as BackendRow, PrismaClient } from "../generated/client";

function fromRow(row: BackendRow): StoredBackendRecord {
  return {
    id: row.id,
    kind: row.kind as InferenceBackendKind,
    baseUrl: row.url,
    modelName: row.modelName,
    weightVersion: row.weightVersion,
    maxConcurrency: row.maxInflight,
    policyId: row.policyId,
    state: row.status as TStoredBackendState,
    revision: row.revision,
    updatedAtMs: row.updatedAtMs,
  };
}

/**
 * The `BackendRegistrationStore` of PGlite and PostgreSQL (table `backends`). Shares the job
 * store's client: `new PrismaBackendRegistrationStore(jobStore.prisma)`. A save is one upsert that
 * increments the row's revision in the database, so two servers saving the same backend at once
 * still give every worker a new revision to apply.
 */
export class PrismaBackendRegistrationStore implements BackendRegistrationStore {
  readonly #prisma: PrismaClient;

  constructor(prisma: PrismaClient) {
    this.#prisma = prisma;
  }

  async save(backend: StoredBackend, atMs: number): Promise<StoredBackendRecord> {
    const data = {
      kind: backend.kind,
      url: backend.baseUrl,
      modelName: backend.modelName,
      weightVersion: backend.weightVersion,
      maxInflight: backend.maxConcurrency,
      policyId: backend.policyId ?? DEFAULT_POLICY_ID,
      status: backend.state,
      updatedAtMs: atMs,
    };
    const row = await this.#prisma.backend.upsert({
      where: { id: backend.id },
      create: { id: backend.id, ...data, revision: 1, createdAtMs: atMs },
      update: { ...data, revision: { increment: 1 } },
    });
    return fromRow(row);
  }

  async list(): Promise<StoredBackendRecord[]> {
    const rows = await this.#prisma.backend.findMany({ orderBy: [{ createdAtMs: "asc" }, { id: "asc" }] });
    return rows.map(fromRow);
  }
}
