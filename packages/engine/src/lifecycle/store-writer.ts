import type { TSandboxEvent, TTeacherScore, TToolCall, TTurn } from "@raas/shared";
import type { EngineLogger } from "../engine.types";
import { type Clock, systemClock } from "../ports/clock.port";
import type { JobHandoff, JobPatch, JobRecord, JobTransitionWrite } from "../ports/job-record.types";
import type { JobStore } from "../ports/job-store.port";
import type { StoreHealth } from "../store-health/store-health";
import { DEFAULT_STORE_BACKOFF, retryWhileUnreachable } from "../store-health/store-retry";

export interface StoreWriterOptions {
  /** Flush when this many writes are pending. Default 500. */
  maxWrites?: number;
  /** Flush at most this long after the first pending write, in ms. Default 5. */
  maxDelayMs?: number;
  /** First wait before retrying a failed update flush, in ms; it doubles per attempt. Default 250. */
  retryDelayMs?: number;
  /** Longest wait between retries of a failed flush, in ms. Default 5_000. */
  maxRetryDelayMs?: number;
  /** Told of every failed and every successful flush; says whether a failure was an outage. */
  health?: StoreHealth;
  /** Times the retry back-off. Default the system clock. */
  clock?: Clock;
}

/** One job's transitions of this batch, coalesced into one compare-and-set write. */
interface PendingTransition {
  write: JobTransitionWrite;
  settles: Array<(won: boolean) => void>;
}

interface PendingInsert {
  job: JobRecord;
  settle: { resolve: () => void; reject: (error: unknown) => void };
}

/**
 * Group commit in front of a `JobStore`: writes from many jobs are coalesced into one batch per
 * flush, flushes never overlap, and a job's writes keep their order. An insert's promise settles
 * when its batch is committed, so a submit is acknowledged only once it is durable. Failed
 * updates are kept and retried with back-off (through a database outage too: a restart or
 * failover is waited out); they are never dropped. Records and patches are taken by reference:
 * the engine treats job records as immutable values (every transition makes a new one).
 */
export class StoreWriter {
  readonly #store: JobStore;
  readonly #logger: EngineLogger | undefined;
  readonly #maxWrites: number;
  readonly #maxDelayMs: number;
  readonly #retryDelayMs: number;
  readonly #maxRetryDelayMs: number;
  readonly #health: StoreHealth | undefined;
  readonly #clock: Clock;
  #inserts = new Map<string, PendingInsert>();
  #updates = new Map<string, JobPatch>();
  #transitions = new Map<string, PendingTransition>();
  #turns: TTurn[] = [];
  #toolCalls: TToolCall[] = [];
  #sandboxEvents: TSandboxEvent[] = [];
  #teacherScores: TTeacherScore[] = [];
  #timer: ReturnType<typeof setTimeout> | null = null;
  #flushing: Promise<void> | null = null;
  #pendingCount = 0;

  constructor(store: JobStore, options: StoreWriterOptions = {}, logger?: EngineLogger) {
    this.#store = store;
    this.#logger = logger;
    this.#maxWrites = options.maxWrites ?? 500;
    this.#maxDelayMs = options.maxDelayMs ?? 5;
    this.#retryDelayMs = options.retryDelayMs ?? DEFAULT_STORE_BACKOFF.initialDelayMs;
    this.#maxRetryDelayMs = options.maxRetryDelayMs ?? DEFAULT_STORE_BACKOFF.maxDelayMs;
    this.#health = options.health;
    this.#clock = options.clock ?? systemClock;
  }

  /** Resolves when the job is committed; rejects when the store refused the batch. */
  insert(job: JobRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#inserts.set(job.id, { job, settle: { resolve, reject } });
      this.#touch();
    });
  }

  update(patch: JobPatch): void {
    const pendingInsert = this.#inserts.get(patch.id);
    if (pendingInsert) {
      pendingInsert.job = { ...pendingInsert.job, ...patch };
    } else {
      const previous = this.#updates.get(patch.id);
      this.#updates.set(patch.id, { ...previous, ...patch });
    }
    this.#touch();
  }

  /**
   * A compare-and-set transition from `expectedVersion` to `expectedVersion + 1`. Transitions of
   * one job in one batch are coalesced (the first one's expected version, the last one's version);
   * resolves true when the store applied it, false when the job had moved on (another process
   * won) — then every later transition of that job in the batch lost too.
   */
  transition(patch: JobPatch, expectedVersion: number, handoff?: JobHandoff | null): Promise<boolean> {
    return new Promise((resolve) => {
      const pending = this.#transitions.get(patch.id);
      if (pending && pending.write.version === expectedVersion) {
        const write = pending.write;
        write.patch = { ...write.patch, ...patch };
        write.version = expectedVersion + 1;
        if (handoff !== undefined) write.handoff = handoff;
        pending.settles.push(resolve);
      } else {
        if (pending) this.#settle(pending, false); // a transition from a version we never wrote
        const write: JobTransitionWrite = { patch, expectedVersion, version: expectedVersion + 1 };
        if (handoff !== undefined) write.handoff = handoff;
        this.#transitions.set(patch.id, { write, settles: [resolve] });
      }
      this.#touch();
    });
  }

  turn(turn: TTurn): void {
    this.#turns.push(turn);
    this.#touch();
  }

  toolCall(call: TToolCall): void {
    this.#toolCalls.push(call);
    this.#touch();
  }

  sandboxEvent(event: TSandboxEvent): void {
    this.#sandboxEvents.push(event);
    this.#touch();
  }

  teacherScore(score: TTeacherScore): void {
    this.#teacherScores.push(score);
    this.#touch();
  }

  /** Writes everything pending now and resolves when it is committed. */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    if (this.#pendingCount === 0) return;
    this.#flushing = this.#flushOnce().finally(() => {
      this.#flushing = null;
    });
    await this.#flushing;
    if (this.#pendingCount > 0) this.#schedule();
  }

  #touch(): void {
    this.#pendingCount += 1;
    if (this.#pendingCount >= this.#maxWrites) void this.flush();
    else this.#schedule();
  }

  #schedule(): void {
    if (this.#timer !== null) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.flush();
    }, this.#maxDelayMs);
  }

  async #flushOnce(): Promise<void> {
    if (this.#timer !== null) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    const inserts = this.#inserts;
    const updates = this.#updates;
    const transitions = this.#transitions;
    const turns = this.#turns;
    const toolCalls = this.#toolCalls;
    const sandboxEvents = this.#sandboxEvents;
    const teacherScores = this.#teacherScores;
    this.#inserts = new Map();
    this.#updates = new Map();
    this.#transitions = new Map();
    this.#turns = [];
    this.#toolCalls = [];
    this.#sandboxEvents = [];
    this.#teacherScores = [];
    this.#pendingCount = 0;

    if (inserts.size > 0) {
      try {
        await this.#store.insertJobs([...inserts.values()].map((pending) => pending.job));
        for (const pending of inserts.values()) pending.settle.resolve();
      } catch (error) {
        // Not retried: the submit was not acknowledged, its caller gets the error (and may retry).
        // In an outage that is the expected answer (a 503 with retry-after): a warning.
        const isOutage = this.#health?.reportFailure(error) ?? false;
        const fields = { err: String(error), jobs: inserts.size };
        if (isOutage) this.#logger?.warn(fields, "store unreachable: a batch of new jobs was refused");
        else this.#logger?.error(fields, "store rejected a batch of new jobs");
        for (const pending of inserts.values()) pending.settle.reject(error);
      }
    }
    if (transitions.size > 0) await this.#commitTransitions(transitions);
    await this.#retrying("job updates", () => this.#store.updateJobs([...updates.values()]), updates.size);
    await this.#retrying("turns", () => this.#store.appendTurns(turns), turns.length);
    await this.#retrying("tool calls", () => this.#store.appendToolCalls(toolCalls), toolCalls.length);
    await this.#retrying(
      "sandbox events",
      () => this.#store.appendSandboxEvents(sandboxEvents),
      sandboxEvents.length,
    );
    await this.#retrying(
      "teacher scores",
      () => this.#store.appendTeacherScores(teacherScores),
      teacherScores.length,
    );
  }

  async #commitTransitions(transitions: Map<string, PendingTransition>): Promise<void> {
    const writes = [...transitions.values()].map((pending) => pending.write);
    let lost: string[] = [];
    let attempts = 0;
    await this.#retrying(
      "job transitions",
      async () => {
        attempts += 1;
        lost = await this.#store.transitionJobs(writes);
      },
      transitions.size,
    );
    const losers = new Set(lost);
    // A failed attempt may have committed before it failed (a connection lost after COMMIT): then
    // the retry finds our own write stored. Such a job is at our version with our exact change.
    if (attempts > 1)
      for (const id of lost) if (await this.#isStored(transitions.get(id)?.write)) losers.delete(id);
    for (const [id, pending] of transitions) this.#settle(pending, !losers.has(id));
  }

  async #isStored(write: JobTransitionWrite | undefined): Promise<boolean> {
    if (!write) return false;
    const stored = await retryWhileUnreachable(
      () => this.#store.readJob(write.patch.id),
      this.#retryOptions(),
    ).catch(() => null);
    const { patch } = write;
    return (
      stored?.version === write.version &&
      stored.record.status === patch.status &&
      stored.record.stage === patch.stage &&
      stored.record.updatedAtMs === patch.updatedAtMs
    );
  }

  #settle(pending: PendingTransition, won: boolean): void {
    for (const settle of pending.settles.splice(0)) settle(won);
  }

  async #retrying(what: string, write: () => Promise<void>, count: number): Promise<void> {
    if (count === 0) return;
    await retryWhileUnreachable(write, {
      ...this.#retryOptions(),
      retryEveryError: true,
      onRetry: ({ error, attempt, delayMs, isOutage }) => {
        const fields = { err: String(error), count, attempt, retryInMs: delayMs };
        // An outage is logged once by the store health; a write held through it is no error.
        if (!isOutage) this.#logger?.error(fields, `store write of ${what} failed; retrying`);
        else if (attempt === 1) this.#logger?.warn(fields, `store unreachable: ${what} held, retrying`);
      },
    });
  }

  #retryOptions() {
    return {
      clock: this.#clock,
      backoff: { initialDelayMs: this.#retryDelayMs, maxDelayMs: this.#maxRetryDelayMs },
      ...(this.#health && { health: this.#health }),
    };
  }
}
