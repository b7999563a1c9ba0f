import type { TGatewayCallRecord } from "@raas/shared";

/** Where the gateway records every model call of a job (memory, or the job store's database). */
export interface GatewayCallStore {
  /** Records a call; a second record with the same `jobId` and `seq` replaces the first. */
  append(record: TGatewayCallRecord): Promise<void>;
  /** The job's calls in arrival order (`seq`). */
  listCalls(jobId: string): Promise<TGatewayCallRecord[]>;
  /**
   * The `seq` the job's next call takes: one past its highest stored `seq`, 0 when it has none.
   * A process that takes over a running job (a restarted server, another worker) continues the
   * numbering from here instead of overwriting the calls recorded before it.
   */
  nextSeq(jobId: string): Promise<number>;
  /**
   * Removes the job's calls: a fresh attempt of its RUN (a retry after a lost worker or a
   * restart) starts a new trajectory, as the engine removes the earlier attempt's turns.
   */
  deleteCalls(jobId: string): Promise<void>;
}
