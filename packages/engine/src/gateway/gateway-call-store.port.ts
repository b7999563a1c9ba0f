import type { TGatewayCallRecord } from "@raas/shared";

/** Where the gateway records every model call of a job (memory, or the job store's database). */
export interface GatewayCallStore {
  /** Records a call; a second record with the same `jobId` and `seq` replaces the first. */
  append(record: TGatewayCallRecord): Promise<void>;
  /** The job's calls in arrival order (`seq`). */
  listCalls(jobId: string): Promise<TGatewayCallRecord[]>;
  /**
   * Removes the job's calls: a fresh attempt of its RUN (a retry after a lost worker or a
   * restart) starts a new trajectory, as the engine removes the earlier attempt's turns.
   */
  deleteCalls(jobId: string): Promise<void>;
}
