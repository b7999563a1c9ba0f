import { isTerminalStatus } from "@raas/shared";
import { z } from "zod";
import { type LiveJob, newLiveJob } from "../../lifecycle/live-job";
import { BUS_CHANNELS } from "../../ports/event-bus.port";
import { EngineAbort } from "../../util/abort";
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

  /** True when this call cancelled the job (false: it was terminal already, or finished first). */
  async cancelOne(id: string): Promise<boolean> {
    const { jobs, queue } = this.#ctx;
    const live = jobs.live.get(id);
    if (live && !live.superseded) {
      const { status, stage } = live.record;
      if (isTerminalStatus(status)) return false;
      if (status === "active" && live.controller) {
        live.controller.abort(new EngineAbort("cancelled", "cancelled by request"));
        return true;
      }
      if (status === "queued" && stage !== null) await queue.remove(id, stage);
      if (await this.#moves.move(live, { type: "cancel", message: cancelMessage(live) })) return true;
      // Another process had moved it: cancel what the store holds.
    }
    return this.#cancelStored(id);
  }

  /**
   * Asks whoever runs the job to give its slot up: a stage running here is aborted as `preempted`
   * (the execution system re-queues the job); otherwise the request goes out on the bus. Only
   * INIT and RUN are preempted: a job in EVAL holds a finished trajectory.
   */
  async preemptOne(id: string): Promise<void> {
    const live = this.#ctx.jobs.live.get(id);
    if (live?.controller && live.record.status === "active" && live.record.stage !== "eval") {
      live.controller.abort(new EngineAbort("preempted", "preempted by higher-priority work"));
      return;
    }
    if (!this.#ctx.isBusShared) return;
    const message = JSON.stringify({ jobIds: [id], reason: "preempted", preempt: true });
    await this.#ctx.bus.publish(BUS_CHANNELS.cancel, message);
  }

  async #cancelStored(id: string): Promise<boolean> {
    const { store, writer, clock, queue, bus } = this.#ctx;
    await writer.flush();
    for (let tries = 0; tries < MAX_CANCEL_TRIES; tries += 1) {
      const stored = await store.readJob(id);
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
          live.controller.abort(new EngineAbort("preempted", "preempted by higher-priority work"));
        continue;
      }
      if (live.controller) live.controller.abort(new EngineAbort("cancelled", "cancelled by request"));
      else this.#moves.supersede(live, `job ${id} was cancelled by another process`);
    }
  }
}

function cancelMessage(live: LiveJob): string {
  const { status, stage } = live.record;
  return `cancelled while ${status}${stage ? ` (${stage})` : ""}`;
}
