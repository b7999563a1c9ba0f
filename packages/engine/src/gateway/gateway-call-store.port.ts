import type { TGatewayCallRecord } from "@raas/shared";

/**
 * What a call repeats of an earlier call of its job (its base): a store may keep only the rest, so
 * a conversation of n calls costs O(n) to store rather than O(n²) — each call's prompt holds every
 * earlier turn, and its request every earlier message.
 */
export interface GatewayCallBase {
  /** The earlier call's `seq`: stored before this call was made. */
  seq: number;
  /** The prompt begins with this many ids of the earlier call's prompt ids followed by its response ids. */
  promptTokens: number;
  /** The request's first `messages` messages are the earlier call's first ones, equal as JSON. */
  messages: number;
  /** The request's tools are the earlier call's, equal as JSON. */
  isSameTools: boolean;
}

/** Where the gateway records every model call of a job (memory, or the job store's database). */
export interface GatewayCallStore {
  /**
   * Records a call; a second record with the same `jobId` and `seq` replaces the first. `base`,
   * when given, is what the record repeats of an earlier recorded call (the record is complete
   * all the same: a store may ignore `base`).
   */
  append(record: TGatewayCallRecord, base?: GatewayCallBase): Promise<void>;
  /** The job's calls in arrival order (`seq`), each complete. */
  listCalls(jobId: string): Promise<TGatewayCallRecord[]>;
  /**
   * Removes the job's calls: a fresh attempt of its RUN (a retry after a lost worker or a
   * restart) starts a new trajectory, as the engine removes the earlier attempt's turns.
   */
  deleteCalls(jobId: string): Promise<void>;
}
