import { requestFailure, type TJob, type TSubmitJobRequest } from "@raas/shared";
import type { SubmitResult } from "../../engine.types";
import { atIndex, atIndexAsync } from "../../lifecycle/batch-index";
import { createJobRecord, parseSubmitRequest } from "../../lifecycle/job-factory";
import { applyTransition } from "../../lifecycle/job-state-machine";
import { KeyedSubmissions } from "../../lifecycle/keyed-submissions";
import { newLiveJob } from "../../lifecycle/live-job";
import type { EngineContext } from "../engine-context";
import type { EventSystem } from "./event-system";

/**
 * New jobs: validated all or nothing, deduplicated by job key, inserted through the group commit
 * already queued for INIT at version 0 (one write per job; a submit is acknowledged once durable),
 * then put on the INIT queue.
 */
export class SubmissionSystem {
  readonly #ctx: EngineContext;
  readonly #events: EventSystem;
  readonly #keyed: KeyedSubmissions;

  /** Set when runs share the service fairly: new jobs go through it instead of straight to the queue. */
  readonly #admit: ((record: TJob) => void) | undefined;

  constructor(ctx: EngineContext, events: EventSystem, admit?: (record: TJob) => void) {
    this.#ctx = ctx;
    this.#admit = admit;
    this.#events = events;
    this.#keyed = new KeyedSubmissions((jobKey) => ctx.store.findJobByKey(jobKey));
  }

  submit(
    requests: readonly TSubmitJobRequest[],
    isBatch: boolean,
    ownerId: string | null,
  ): Promise<SubmitResult[]> {
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
        const create = () => this.#create(request, payloads[index], ownerId);
        const { jobKey } = request;
        if (jobKey === undefined) return create();
        return atIndexAsync(
          () => this.#keyed.submit({ ...request, jobKey }, ownerId, create),
          isBatch,
          index,
        );
      }),
    );
  }

  async #create(
    request: ReturnType<typeof parseSubmitRequest>,
    payload: unknown,
    ownerId: string | null,
  ): Promise<SubmitResult> {
    const { clock, jobs, writer, stats, queue } = this.#ctx;
    const nowMs = clock.now();
    const at = { nowMs, stateSinceMs: nowMs };
    const record = applyTransition(createJobRecord(request, nowMs, ownerId), { type: "enqueue" }, at);
    const live = newLiveJob(record, payload, nowMs);
    jobs.live.set(record.id, live);
    try {
      await writer.insert(record);
    } catch (error) {
      jobs.live.delete(record.id);
      throw requestFailure("UNAVAILABLE", "the job store is unavailable; the job was not accepted, retry", {
        cause: error,
      });
    }
    stats.submitted();
    stats.moved(null, { status: "queued", stage: "init", failureKind: null }, nowMs);
    this.#events.committed(record, 0);
    if (this.#admit) this.#admit(record);
    else await queue.enqueue({ jobId: record.id, stage: "init", priority: record.priority });
    return { job: live.record, created: true };
  }
}
