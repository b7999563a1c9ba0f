import { DEFAULT_PLACEMENT_MAX_WAIT_MS } from "@raas/engine";

/** Options of `RedisJobQueue`; every default lives in `withQueueDefaults`. */
export interface RedisJobQueueOptions {
  /** `redis://host:port/db` of the Redis that holds the queues. */
  url: string;
  /**
   * Prefix of every key this queue writes (BullMQ's `prefix`). Default `raas`. Deployments sharing
   * one Redis use different prefixes; tests use a fresh one each.
   */
  prefix?: string;
  /**
   * How often expired leases are looked for, in ms (BullMQ's stalled check). An item whose lease
   * expired is delivered again within `leaseMs` + 2 × this. Default 5,000.
   */
  stalledIntervalMs?: number;
  /**
   * How many lease expiries one item survives before BullMQ fails it (its `maxStalledCount`):
   * a job that keeps killing its workers stops being handed out. Default 10.
   */
  maxLeaseExpiries?: number;
  /**
   * Longest single wait on Redis for new items, in ms; also bounds how late a waiting reserver
   * notices a delayed item another process was told about. Default 1,000.
   */
  maxBlockMs?: number;
  /**
   * How long a shared item with an image is left to workers that hold that image
   * (`ReserveOptions.images`) before any worker takes it, in ms. Default 3,000.
   */
  placementMaxWaitMs?: number;
  /** Called for what the queue drops or cannot do in the background (malformed entries, errors). */
  onError?: (message: string, error?: unknown) => void;
  /**
   * Called when the connection comes back after a loss. Redis may have restarted without its data
   * (no persistence): the composition root re-queues from the store (`engine.requeueQueuedJobs()`).
   * Default: nothing.
   */
  onRestored?: () => void;
}

export type TResolvedQueueOptions = Required<RedisJobQueueOptions>;

export function withQueueDefaults(options: RedisJobQueueOptions): TResolvedQueueOptions {
  return {
    prefix: "raas",
    stalledIntervalMs: 5_000,
    maxLeaseExpiries: 10,
    maxBlockMs: 1_000,
    placementMaxWaitMs: DEFAULT_PLACEMENT_MAX_WAIT_MS,
    onError: (message, error) => console.error(`[raas/queue] ${message}`, error ?? ""),
    onRestored: () => {},
    ...stripUndefined(options),
  };
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
