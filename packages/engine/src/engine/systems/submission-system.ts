import { RaasError, type TJob, type TSubmitJobRequest } from "@raas/shared";
import type { SubmitResult } from "../../engine.types";
import { atIndex, atIndexAsync } from "../../lifecycle/batch-index";
import { createJobRecord, parseSubmitRequest } from "../../lifecycle/job-factory";
import { KeyedSubmissions } from "../../lifecycle/keyed-submissions";
import { newLiveJob } from "../../lifecycle/live-job";
import type { EngineContext } from "../engine-context";
import type { TransitionSystem } from "./transition-system";

/**
 * New jobs: validated all or nothing, deduplicated by job key, inserted through the group commit
 * (a submit is acknowledged once durable) and queued for INIT once that transition is stored.
 */
export class SubmissionSystem {
  readonly #ctx: EngineContext;
  readonly #moves: TransitionSystem;
  readonly #keyed: KeyedSubmissions;

  constructor(ctx: EngineContext, moves: TransitionSystem, freshest: (job: TJob) => TJob) {
    this.#ctx = ctx;
    this.#moves = moves;
    this.#keyed = new KeyedSubmissions(async (jobKey) => {
      const existing = await ctx.store.findJobByKey(jobKey);
      return existing ? freshest(existing) : null;
    });
  }

  /** The job behind `jobKey` ended; later submits find it in the store. */
  forgetKey(jobKey: string): void {
    this.#keyed.forget(jobKey);
  }

  submit(requests: readonly TSubmitJobRequest[], isBatch: boolean): Promise<SubmitResult[]> {
    const at = (index: number): PropertyKey[] => (isBatch ? ["jobs", index] : []);
    const parsed = requests.map((request, index) => parseSubmitRequest(request, at(index)));
    const payloads = parsed.map((request, index) =>
      atIndex(
        () => this.#ctx.handlers.parsePayload(request.kind, request.payload, at(index)),
        isBatch,
        index,
      ),
    );
    return Promise.all(
      parsed.map(async (request, index) => {
        const create = () => this.#create(request, payloads[index]);
        const { jobKey } = request;
        if (jobKey === undefined) return create();
        return atIndexAsync(() => this.#keyed.submit({ ...request, jobKey }, create), isBatch, index);
      }),
    );
  }

  async #create(request: ReturnType<typeof parseSubmitRequest>, payload: unknown): Promise<SubmitResult> {
    const { clock, jobs, writer, stats, queue, logger } = this.#ctx;
    const nowMs = clock.now();
    const record = createJobRecord(request, nowMs);
    const live = newLiveJob(record, payload, nowMs);
    jobs.live.set(record.id, live);
    const inserted = writer.insert(record);
    stats.submitted();
    stats.moved(null, { status: "submitted", stage: null, failureKind: null }, nowMs);
    // Queued in the same batch as the insert: one flush makes the job durable and queued.
    const queued = this.#moves.move(live, { type: "enqueue" });
    try {
      await inserted;
    } catch (error) {
      jobs.live.delete(record.id);
      throw new RaasError("UNAVAILABLE", "the job store is unavailable; the job was not accepted, retry", {
        cause: error,
      });
    }
    queued
      .then((won) => {
        if (won) return queue.enqueue({ jobId: record.id, stage: "init", priority: record.priority });
      })
      .catch((error: unknown) =>
        logger?.error({ jobId: record.id, err: String(error) }, "queueing a new job failed"),
      );
    return { job: live.record, created: true };
  }
}
