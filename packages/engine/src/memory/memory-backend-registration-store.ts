import { DEFAULT_POLICY_ID } from "@raas/shared";
import type {
  BackendRegistrationStore,
  StoredBackend,
  StoredBackendRecord,
} from "../ports/backend-registration-store.port";

/** The embedded default's backend registrations: one process, nothing to share or keep. */
export class MemoryBackendRegistrationStore implements BackendRegistrationStore {
  readonly #backends = new Map<string, StoredBackendRecord>();

  async save(backend: StoredBackend, atMs: number): Promise<StoredBackendRecord> {
    const revision = (this.#backends.get(backend.id)?.revision ?? 0) + 1;
    const policyId = backend.policyId ?? DEFAULT_POLICY_ID;
    const record: StoredBackendRecord = { ...backend, policyId, revision, updatedAtMs: atMs };
    this.#backends.set(backend.id, record);
    return { ...record };
  }

  async list(): Promise<StoredBackendRecord[]> {
    return [...this.#backends.values()].map((record) => ({ ...record }));
  }
}
