import type {
  EnvironmentRecord,
  EnvironmentStore,
  NewEnvironment,
  OracleCheckRecord,
} from "../ports/environment-store.port";

/**
 * An `EnvironmentStore` in process memory: for tests and `RAAS_STORE=memory`. Nothing survives a
 * restart. Records are deep-copied in and out, as a round trip through a database would.
 */
export class MemoryEnvironmentStore implements EnvironmentStore {
  readonly #environments = new Map<string, EnvironmentRecord>();

  async save(environment: NewEnvironment, atMs: number): Promise<EnvironmentRecord> {
    const existing = this.#environments.get(environment.name);
    const isSameSource = existing?.path === environment.path && existing.kind === environment.kind;
    const record: EnvironmentRecord = {
      ...structuredClone(environment),
      oracle: isSameSource ? (existing?.oracle ?? null) : null,
      createdAtMs: existing?.createdAtMs ?? atMs,
      updatedAtMs: atMs,
    };
    this.#environments.set(environment.name, record);
    return structuredClone(record);
  }

  async get(name: string): Promise<EnvironmentRecord | null> {
    const record = this.#environments.get(name);
    return record ? structuredClone(record) : null;
  }

  async list(): Promise<EnvironmentRecord[]> {
    return [...this.#environments.values()]
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((record) => structuredClone(record));
  }

  async recordOracle(
    name: string,
    oracle: OracleCheckRecord,
    atMs: number,
  ): Promise<EnvironmentRecord | null> {
    const record = this.#environments.get(name);
    if (!record) return null;
    record.oracle = structuredClone(oracle);
    record.updatedAtMs = atMs;
    return structuredClone(record);
  }
}
