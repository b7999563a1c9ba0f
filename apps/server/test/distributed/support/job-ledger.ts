import { BUS_CHANNELS } from "@raas/engine";
import { RedisEventBus } from "@raas/queue";
import { isTerminalStatus, type TJob, ZJob } from "@raas/shared";
import { z } from "zod";

const ZJobEventMessage = z.object({ origin: z.string(), version: z.number().int(), job: ZJob });

/**
 * Every job event any process of a deployment publishes on the bus, per job: the latest state and
 * each terminal event (a job reported twice would show two). Delivery is at most once, so while
 * Redis is down events are missed; tests that restart Redis read final states from the store.
 */
export class JobLedger {
  readonly #latest = new Map<string, { job: TJob; version: number }>();
  readonly #terminal = new Map<string, Array<{ job: TJob; origin: string }>>();
  readonly #history = new Map<string, Array<{ job: TJob; origin: string; version: number }>>();
  readonly #bus: RedisEventBus;
  #unsubscribe: (() => Promise<void>) | null = null;

  private constructor(bus: RedisEventBus) {
    this.#bus = bus;
  }

  static async open(options: { url: string; prefix: string }): Promise<JobLedger> {
    const ledger = new JobLedger(new RedisEventBus({ ...options, onError: () => {} }));
    ledger.#unsubscribe = await ledger.#bus.subscribe(BUS_CHANNELS.jobEvents, (message) =>
      ledger.#receive(message),
    );
    return ledger;
  }

  /** The newest state heard of a job (highest version), if any. */
  latest(jobId: string): TJob | undefined {
    return this.#latest.get(jobId)?.job;
  }

  /** Terminal events heard for a job, with the worker that published each. */
  terminalEvents(jobId: string): Array<{ job: TJob; origin: string }> {
    return this.#terminal.get(jobId) ?? [];
  }

  /** Every event heard of a job, by version (the process that published each as `origin`). */
  history(jobId: string): Array<{ job: TJob; origin: string; version: number }> {
    return [...(this.#history.get(jobId) ?? [])].sort((a, b) => a.version - b.version);
  }

  async close(): Promise<void> {
    await this.#unsubscribe?.();
    await this.#bus.close();
  }

  #receive(message: string): void {
    const parsed = ZJobEventMessage.safeParse(JSON.parse(message));
    if (!parsed.success) return;
    const { job, version, origin } = parsed.data;
    const known = this.#latest.get(job.id);
    if (!known || known.version < version) this.#latest.set(job.id, { job, version });
    const history = this.#history.get(job.id) ?? [];
    history.push({ job, origin, version });
    this.#history.set(job.id, history);
    if (isTerminalStatus(job.status))
      this.#terminal.set(job.id, [...this.terminalEvents(job.id), { job, origin }]);
  }
}
