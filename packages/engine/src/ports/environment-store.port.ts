/** One task's row of an environment's last oracle check. */
interface OracleCheckRowRecord {
  task: string;
  oracleReward: number | null;
  noopReward: number | null;
  verdict: "pass" | "fail" | "skipped";
  reasons: string[];
  seconds: number;
}

/** The last oracle check of an environment (`raas env verify`). */
export interface OracleCheckRecord {
  checkedAtMs: number;
  passed: number;
  failed: number;
  skipped: number;
  rows: OracleCheckRowRecord[];
}

/** An environment registered with the service: a directory on the server of a known kind. */
export interface EnvironmentRecord {
  /** Unique name, what training and benchmark runs reference. */
  name: string;
  /** The handler kind of its tasks (`harbor`, `reward-fn`, `judge`). */
  kind: string;
  /** The directory on the server it was read from. */
  path: string;
  description: string | null;
  /** Tasks it held when registered. */
  taskCount: number;
  /** Its last oracle check; null until one is recorded (or after its path or kind changed). */
  oracle: OracleCheckRecord | null;
  createdAtMs: number;
  updatedAtMs: number;
}

/** What a registration stores (the rest is kept, or set by the store). */
export type NewEnvironment = Omit<EnvironmentRecord, "oracle" | "createdAtMs" | "updatedAtMs">;

/**
 * Environments registered through the API. Adapters: in-memory (tests, `RAAS_STORE=memory`) and
 * Prisma (PGlite or PostgreSQL). Low volume: a deployment has tens of environments.
 */
export interface EnvironmentStore {
  /**
   * Stores an environment by name: a new one, or over the one of that name (keeping its creation
   * time, and its oracle check unless the path or kind changed). Returns the stored record.
   */
  save(environment: NewEnvironment, atMs: number): Promise<EnvironmentRecord>;
  get(name: string): Promise<EnvironmentRecord | null>;
  /** Every environment, by name. */
  list(): Promise<EnvironmentRecord[]>;
  /** Replaces the environment's last oracle check; null for an unknown name. */
  recordOracle(name: string, oracle: OracleCheckRecord, atMs: number): Promise<EnvironmentRecord | null>;
}
