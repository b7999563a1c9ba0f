import { abortFailure, isTerminalStatus } from "@raas/shared";
import { z } from "zod";
import { type LiveJob, newLiveJob } from "../../lifecycle/live-job";
import { BUS_CHANNELS } from "../../ports/event-bus.port";
import type { StoredJob } from "../../ports/job-record.types";
import type { EngineContext } from "../engine-context";
import type { TransitionSystem } from "./transition-system";

const ZCancelMessage = z.object({
  jobIds: z.array(z.string()),
  reason: z.string(),
  /** Preempt (re-queue) rather than cancel: the holder aborts the stage as `preempted`. */
  preempt: z.boolean().optional(),
});
/** Compare-and-set attempts of one cancel against a job that keeps moving. */
const MAX_CANCEL_TRIES = 5;

/**
 * Cancel intents. A job running here is aborted at once (its stage ends as `cancelled`). Any other
 * job is cancelled in the store — a compare-and-set from its stored version, so a job that
 * completes meanwhile stays completed — and the cancel is published on the bus, where the process
 * running it aborts the stage and closes its sandbox.
 */
export class CancellationSystem {
  readonly #ctx: EngineContext;
  readonly #moves: TransitionSystem;
  #unsubscribe: (() => Promise<void>) | null = null;

  constructor(ctx: EngineContext, moves: TransitionSystem) {
    this.#ctx = ctx;
    this.#moves = moves;
  }

  async start(): Promise<void> {
    if (this.#unsubscribe) return;
    this.#unsubscribe = await this.#ctx.bus.subscribe(BUS_CHANNELS.cancel, (message) =>
      this.#receive(message),
    );
  }

  async stop(): Promise<void> {
    const unsubscribe = this.#unsubscribe;
    this.#unsubscribe = null;
    await unsubscribe?.();
  }

  /**
   * True when this call cancelled the job; false when the store holds it terminal (or it ended
   * first). The store decides: `stored` (read now when not given, this engine's writes flushed
   * first) says whether the job is still unfinished, and this engine's copy is acted on only when
   * the store has not moved past it — a copy another process moved on (a job recovered elsewhere,
   * cancelled by another replica while the bus was down) is dropped, its stage aborted.
   */
  async cancelOne(id: string, given?: StoredJob): Promise<boolean> {
    const { jobs, queue, writer, store } = this.#ctx;
    let stored = given;
    if (!stored) {
      await writer.flush();
      stored = (await store.readJob(id)) ?? undefined;
    }
    const live = jobs.live.get(id);
    if (live && !live.superseded && stored && stored.version > live.version) {
      this.#moves.supersede(live, `job ${id} was moved by another process`);
    }
    if (!stored || isTerminalStatus(stored.record.status)) return false;
    if (live && !live.superseded) {
      const { status, stage } = live.record;
      if (isTerminalStatus(status)) return false;
      if (status === "active" && live.controller) {
        live.controller.abort(abortFailure("cancelled", "cancelled by request"));
        return true;
      }
      if (status === "queued" && stage !== null) await queue.remove(id, stage);
      if (await this.#moves.move(live, { type: "cancel", message: cancelMessage(live) })) return true;
      // Another process had moved it meanwhile: cancel what the store holds now.
      return this.#cancelStored(id, null);
    }
    return this.#cancelStored(id, stored);
  }

  /**
   * Asks whoever runs the job to give its slot up: a stage running here is aborted as `preempted`
   * (the execution system re-queues the job); otherwise the request goes out on the bus. Only
   * INIT and RUN are preempted: a job in EVAL holds a finished trajectory.
   */
  async preemptOne(id: string): Promise<void> {
    const live = this.#ctx.jobs.live.get(id);
    if (live?.controller && live.record.status === "active" && live.record.stage !== "eval") {
      live.controller.abort(abortFailure("preempted", "preempted by higher-priority work"));
      return;
    }
    if (!this.#ctx.isBusShared) return;
    const message = JSON.stringify({ jobIds: [id], reason: "preempted", preempt: true });
    await this.#ctx.bus.publish(BUS_CHANNELS.cancel, message);
  }

  /**
   * Cancels the job as the store holds it, a compare-and-set from its stored version, read again
   * while another process keeps moving it. `justRead`: the stored job as just read, if it was.
   */
  async #cancelStored(id: string, justRead: StoredJob | null): Promise<boolean> {
    const { store, writer, clock, queue, bus } = this.#ctx;
    let read = justRead;
    for (let tries = 0; tries < MAX_CANCEL_TRIES; tries += 1) {
      if (read === null) {
        await writer.flush();
        read = await store.readJob(id);
      }
      const stored = read;
      read = null;
      if (!stored || isTerminalStatus(stored.record.status)) return false;
      const live = newLiveJob(stored.record, null, clock.now(), stored, false);
      const { status, stage } = stored.record;
      if (status === "queued" && stage !== null) await queue.remove(id, stage);
      const message = cancelMessage(live);
      if (await this.#moves.move(live, { type: "cancel", message })) {
        await bus.publish(BUS_CHANNELS.cancel, JSON.stringify({ jobIds: [id], reason: message }));
        return true;
      }
    }
    return false;
  }

  #receive(message: string): void {
    let parsed: z.infer<typeof ZCancelMessage>;
    try {
      parsed = ZCancelMessage.parse(JSON.parse(message));
    } catch (error) {
      this.#ctx.logger?.warn({ err: String(error) }, "ignored a malformed cancel message from the bus");
      return;
    }
    for (const id of parsed.jobIds) {
      const live = this.#ctx.jobs.live.get(id);
      if (!live) continue;
      if (parsed.preempt) {
        if (live.controller && live.record.status === "active" && live.record.stage !== "eval")
          live.controller.abort(abortFailure("preempted", "preempted by higher-priority work"));
        continue;
      }
      if (live.controller) live.controller.abort(abortFailure("cancelled", "cancelled by request"));
      else this.#moves.supersede(live, `job ${id} was cancelled by another process`);
    }
  }
}

function cancelMessage(live: LiveJob): string {
  const { status, stage } = live.record;
  return `cancelled while ${status}${stage ? ` (${stage})` : ""}`;
}
