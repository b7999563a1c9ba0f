import type { TFailureKind, TStage } from "@raas/shared";
import { isTerminalStatus, ZJob } from "@raas/shared";
import { z } from "zod";
import type { JobEventListener } from "../../engine.types";
import { BUS_CHANNELS } from "../../ports/event-bus.port";
import type { JobRecord, StoredJob } from "../../ports/job-record.types";
import type { EngineContext } from "../engine-context";

export interface StageFinishedEvent {
  jobId: string;
  stage: TStage;
  durationMs: number;
  outcome: "ok" | TFailureKind;
}

/** Store reads in flight at once while re-reading jobs after a bus loss. */
const RESYNC_READS_AT_ONCE = 16;

const ZJobEventMessage = z.object({ origin: z.string(), version: z.number().int(), job: ZJob });

/**
 * Job events: delivered to this engine's listeners once a change is stored, and — with a shared
 * bus — published to every other process and received from them (a process never hears its own
 * messages twice: those from its own worker id are dropped).
 */
export class EventSystem {
  readonly #ctx: EngineContext;
  readonly #listeners = new Set<JobEventListener>();
  readonly #stageListeners = new Set<(event: StageFinishedEvent) => void>();
  /** Called for a change another process made to a job (before listeners hear of it). */
  readonly #onRemoteChange: (job: JobRecord, version: number) => void;
  #unsubscribe: (() => Promise<void>) | null = null;
  /** How this process's own messages begin (`committed` writes `origin` first). */
  readonly #ownPrefix: string;

  constructor(ctx: EngineContext, onRemoteChange: (job: JobRecord, version: number) => void) {
    this.#ctx = ctx;
    this.#ownPrefix = `{"origin":${JSON.stringify(ctx.workerId)},`;
    this.#onRemoteChange = onRemoteChange;
  }

  async start(): Promise<void> {
    if (!this.#ctx.isBusShared || this.#unsubscribe) return;
    const unsubscribe = await this.#ctx.bus.subscribe(BUS_CHANNELS.jobEvents, (message) =>
      this.#receive(message),
    );
    // Whatever was published while the bus was away is lost for good: read it from the store.
    const stopWatching = this.#ctx.bus.onRestored?.(() => {
      this.resync().catch((error: unknown) => {
        this.#ctx.logger?.error({ err: String(error) }, "re-reading jobs after the bus came back failed");
      });
    });
    this.#unsubscribe = async () => {
      stopWatching?.();
      await unsubscribe();
    };
  }

  async stop(): Promise<void> {
    const unsubscribe = this.#unsubscribe;
    this.#unsubscribe = null;
    await unsubscribe?.();
  }

  /**
   * Re-reads from the store every job this engine knows unfinished and is not running itself, and
   * takes each one another process moved meanwhile as if its event had arrived (listeners, stats
   * and copies corrected). Run after a bus loss. Resolves to how many jobs had moved.
   */
  async resync(): Promise<number> {
    const { jobs, store, writer, logger } = this.#ctx;
    const ids = jobs.unsettledIds();
    await writer.flush();
    let moved = 0;
    for (let start = 0; start < ids.length; start += RESYNC_READS_AT_ONCE) {
      const chunk = ids.slice(start, start + RESYNC_READS_AT_ONCE);
      for (const stored of await Promise.all(chunk.map((id) => store.readJob(id)))) {
        if (stored && this.reconcile(stored)) moved += 1;
      }
    }
    logger?.info({ known: ids.length, moved }, "re-read unfinished jobs from the store after a bus loss");
    return moved;
  }

  /**
   * A job as the store holds it: when it is newer than this engine's copy (another process moved
   * it and the event never came), it is taken as that event. Returns true when it was newer.
   */
  reconcile(stored: StoredJob): boolean {
    const known = this.#ctx.jobs.knownVersion(stored.record.id);
    if (known === undefined || stored.version <= known) return false;
    this.#applyRemote(stored.record, stored.version);
    return true;
  }

  subscribe(listener: JobEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  onStageFinished(listener: (event: StageFinishedEvent) => void): () => void {
    this.#stageListeners.add(listener);
    return () => this.#stageListeners.delete(listener);
  }

  stageFinished(event: StageFinishedEvent): void {
    for (const listener of this.#stageListeners) listener(event);
  }

  /** A change this engine stored (its compare-and-set won). */
  committed(job: JobRecord, version: number): void {
    if (isTerminalStatus(job.status)) this.#ctx.jobs.remember(job.id, version, true);
    this.#deliver(job);
    if (!this.#ctx.isBusShared) return;
    const message = JSON.stringify({ origin: this.#ctx.workerId, version, job });
    this.#ctx.bus.publish(BUS_CHANNELS.jobEvents, message).catch((error: unknown) => {
      this.#ctx.logger?.warn({ jobId: job.id, err: String(error) }, "publishing a job event failed");
    });
  }

  #receive(message: string): void {
    // Redis delivers this process's own messages back: drop them before parsing (every process
    // hears every job event of the deployment, so parsing is per message times processes).
    if (message.startsWith(this.#ownPrefix)) return;
    let parsed: z.infer<typeof ZJobEventMessage>;
    try {
      parsed = ZJobEventMessage.parse(JSON.parse(message));
    } catch (error) {
      this.#ctx.logger?.warn({ err: String(error) }, "ignored a malformed job event from the bus");
      return;
    }
    if (parsed.origin === this.#ctx.workerId) return;
    // Already known at this version or later (read from the store by `getJob` or a resync before
    // its event arrived, or a late message): listeners saw it once and never go back in time.
    const known = this.#ctx.jobs.knownVersion(parsed.job.id);
    if (known !== undefined && parsed.version <= known) return;
    this.#applyRemote(parsed.job as JobRecord, parsed.version);
  }

  /** A change another process stored (heard on the bus, or read from the store after a loss). */
  #applyRemote(job: JobRecord, version: number): void {
    // Each job ends once, stored by the one process whose compare-and-set won; every other process
    // counts that end from here, so the totals of `stats()` (an API-only server's included) are
    // the deployment's, not this process's alone.
    if (isTerminalStatus(job.status) && !this.#ctx.jobs.hasSeenEnd(job.id)) {
      const to = {
        status: job.status,
        stage: job.stage,
        failureKind: job.failure?.kind ?? null,
        failureLabel: job.failure?.label ?? null,
      };
      this.#ctx.stats.moved(null, to, this.#ctx.clock.now());
    }
    this.#ctx.jobs.remember(job.id, version, isTerminalStatus(job.status));
    this.#onRemoteChange(job, version);
    this.#deliver(job);
  }

  #deliver(job: JobRecord): void {
    for (const listener of this.#listeners) {
      try {
        listener({ type: "job.updated", job });
      } catch (error) {
        this.#ctx.logger?.warn({ err: String(error) }, "job event listener threw");
      }
    }
  }
}
