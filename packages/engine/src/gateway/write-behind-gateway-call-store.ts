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

  constructor(inner: GatewayCallStore, options: WriteBehindOptions = {}) {
    this.#inner = inner;
    this.#retryForMs = options.retryForMs ?? 30_000;
    this.#firstRetryDelayMs = options.firstRetryDelayMs ?? 50;
    this.#onRetry = options.onRetry ?? (() => {});
  }

  /** Accepts the call (stored behind the answer); rejects when an earlier call of the job was lost. */
  async append(record: TGatewayCallRecord, base?: GatewayCallBase): Promise<void> {
    const lost = this.#lost.get(record.jobId);
    if (lost) throw lost;
    const jobWrites = this.#pending.get(record.jobId) ?? new Set<Promise<void>>();
    this.#pending.set(record.jobId, jobWrites);
    const written: Promise<void> = this.#store(record, base).finally(() => {
      jobWrites.delete(written);
      if (jobWrites.size === 0 && this.#pending.get(record.jobId) === jobWrites) {
        this.#pending.delete(record.jobId);
      }
    });
    jobWrites.add(written);
  }

  async listCalls(jobId: string): Promise<TGatewayCallRecord[]> {
    await this.#settled(jobId);
    const lost = this.#lost.get(jobId);
    if (lost) throw lost;
    return this.#inner.listCalls(jobId);
  }

  async deleteCalls(jobId: string): Promise<void> {
    await this.#settled(jobId);
    await this.#inner.deleteCalls(jobId);
    this.#lost.delete(jobId);
  }

  /** Resolves once every write accepted so far is stored or given up. */
  async flush(): Promise<void> {
    await Promise.all([...this.#pending.keys()].map((jobId) => this.#settled(jobId)));
  }

  async #settled(jobId: string): Promise<void> {
    const jobWrites = this.#pending.get(jobId);
    if (jobWrites) await Promise.all(jobWrites);
  }

  /** Stores the call, trying again while `retryForMs` lasts; never rejects (a loss is kept per job). */
  async #store(record: TGatewayCallRecord, base: GatewayCallBase | undefined): Promise<void> {
    // After the answer is on its way: encoding the row costs CPU the harness need not wait for.
    await new Promise<void>((resolve) => setImmediate(resolve));
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
