import { requestFailure, type TGatewayCallRecord } from "@raas/shared";
import type { GatewayCallBase, GatewayCallStore } from "./gateway-call-store.port";

/** Options of `WriteBehindGatewayCallStore`. */
interface WriteBehindOptions {
  /**
   * How long a failed write is tried again before the job's calls are reported lost (its reads and
   * its next calls then fail as infrastructure, 503). Default 30_000.
   */
  retryForMs?: number;
  /** The first wait before trying a failed write again, doubling up to 2_000. Default 50. */
  firstRetryDelayMs?: number;
  /** Told of every failed write that will be tried again (a store outage shows in the log). */
  onRetry?: (error: unknown, record: Pick<TGatewayCallRecord, "jobId" | "seq">) => void;
  /**
   * How long accepted calls gather before they are handed to the store together, in one turn of
   * the event loop (a store that groups writes, as the database's does, then stores them in one
   * statement and one commit instead of one each: on a shared 2-core host the database's CPU per
   * commit competes with the gateway's). A read of a job, a fresh attempt and `flush` hand the
   * gathered calls over at once, so no reader waits for the window. Default 0 (the next turn).
   */
  gatherMs?: number;
  /** The most calls gathered before they are handed over without waiting out `gatherMs`. Default 256. */
  maxGathered?: number;
}

/** An accepted call waiting for its window to close. */
interface Gathered {
  record: TGatewayCallRecord;
  base: GatewayCallBase | undefined;
  stored: () => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A `GatewayCallStore` that takes a call's write off the answer's path: `append` resolves once the
 * call is accepted, and the call is stored behind it (into a database, a round trip and a commit
 * a harness no longer waits for). No reader misses an accepted call: `listCalls` and `deleteCalls`
 * of a job first wait for the job's accepted writes, so traces, the harness runner's turns and a
 * fresh attempt see every call answered before. A write that fails is tried again (`retryForMs`);
 * one that still fails is never dropped silently: the job's reads and later appends reject with
 * an infrastructure failure until a fresh attempt (`deleteCalls`) starts the job over. Call `flush`
 * before closing the store underneath.
 */
export class WriteBehindGatewayCallStore implements GatewayCallStore {
  readonly #inner: GatewayCallStore;
  readonly #retryForMs: number;
  readonly #firstRetryDelayMs: number;
  readonly #onRetry: NonNullable<WriteBehindOptions["onRetry"]>;
  /** Per job, its writes accepted and not yet settled. */
  readonly #pending = new Map<string, Set<Promise<void>>>();
  /** Per job, the write that could not be stored (until a fresh attempt). */
  readonly #lost = new Map<string, Error>();
  readonly #gatherMs: number;
  readonly #maxGathered: number;
  /** Accepted calls not yet handed to the store, in arrival order. */
  #gathered: Gathered[] = [];
  /** Cancels the open window's timer; undefined when no window is open. */
  #cancelWindow: (() => void) | undefined;

  constructor(inner: GatewayCallStore, options: WriteBehindOptions = {}) {
    this.#inner = inner;
    this.#retryForMs = options.retryForMs ?? 30_000;
    this.#firstRetryDelayMs = options.firstRetryDelayMs ?? 50;
    this.#onRetry = options.onRetry ?? (() => {});
    this.#gatherMs = Math.max(0, options.gatherMs ?? 0);
    this.#maxGathered = Math.max(1, options.maxGathered ?? 256);
  }

  /** Accepts the call (stored behind the answer); rejects when an earlier call of the job was lost. */
  async append(record: TGatewayCallRecord, base?: GatewayCallBase): Promise<void> {
    const lost = this.#lost.get(record.jobId);
    if (lost) throw lost;
    const jobWrites = this.#pending.get(record.jobId) ?? new Set<Promise<void>>();
    this.#pending.set(record.jobId, jobWrites);
    const written: Promise<void> = this.#gather(record, base).finally(() => {
      jobWrites.delete(written);
      if (jobWrites.size === 0 && this.#pending.get(record.jobId) === jobWrites) {
        this.#pending.delete(record.jobId);
      }
    });
    jobWrites.add(written);
  }

  async listCalls(jobId: string): Promise<TGatewayCallRecord[]> {
    this.#handOver();
    await this.#settled(jobId);
    const lost = this.#lost.get(jobId);
    if (lost) throw lost;
    return this.#inner.listCalls(jobId);
  }

  async deleteCalls(jobId: string): Promise<void> {
    this.#handOver();
    await this.#settled(jobId);
    await this.#inner.deleteCalls(jobId);
    this.#lost.delete(jobId);
  }

  /** Resolves once every write accepted so far is stored or given up. */
  async flush(): Promise<void> {
    this.#handOver();
    await Promise.all([...this.#pending.keys()].map((jobId) => this.#settled(jobId)));
  }

  async #settled(jobId: string): Promise<void> {
    const jobWrites = this.#pending.get(jobId);
    if (jobWrites) await Promise.all(jobWrites);
  }

  /** Resolves once the call is stored or given up; it waits in the open window until handed over. */
  #gather(record: TGatewayCallRecord, base: GatewayCallBase | undefined): Promise<void> {
    return new Promise<void>((stored) => {
      this.#gathered.push({ record, base, stored });
      if (this.#gathered.length >= this.#maxGathered) this.#handOver();
      // After the answer is on its way: encoding the rows costs CPU the harness need not wait for.
      else if (this.#cancelWindow === undefined) this.#openWindow();
    });
  }

  #openWindow(): void {
    const close = () => this.#handOver();
    if (this.#gatherMs > 0) {
      const timer = setTimeout(close, this.#gatherMs);
      this.#cancelWindow = () => clearTimeout(timer);
    } else {
      const immediate = setImmediate(close);
      this.#cancelWindow = () => clearImmediate(immediate);
    }
  }

  /** Hands every gathered call to the store, all in this turn (so a grouping store groups them). */
  #handOver(): void {
    this.#cancelWindow?.();
    this.#cancelWindow = undefined;
    const gathered = this.#gathered;
    this.#gathered = [];
    for (const { record, base, stored } of gathered) void this.#store(record, base).then(stored);
  }

  /** Stores the call, trying again while `retryForMs` lasts; never rejects (a loss is kept per job). */
  async #store(record: TGatewayCallRecord, base: GatewayCallBase | undefined): Promise<void> {
    const giveUpAt = performance.now() + this.#retryForMs;
    let delayMs = this.#firstRetryDelayMs;
    for (;;) {
      try {
        await this.#inner.append(record, base);
        return;
      } catch (error) {
        if (performance.now() + delayMs >= giveUpAt) {
          this.#lost.set(
            record.jobId,
            requestFailure(
              "UNAVAILABLE",
              `gateway call #${record.seq} of job ${record.jobId} was answered but could not be stored: ${String(error)}`,
              { cause: error },
            ),
          );
          return;
        }
        this.#onRetry(error, record);
        await sleep(delayMs);
        delayMs = Math.min(2_000, delayMs * 2);
      }
    }
  }
}
