import { requestFailure, type TJob, type TSubmitJobParsed } from "@raas/shared";
import type { SubmitResult } from "../engine.types";
import { differingSubmitFields } from "./submission-diff";

/**
 * Idempotent submit by job key: one creation per key at a time in this process, and a store
 * lookup for keys created earlier (by this or another process). The same key with the same
 * request returns the existing job as the store holds it; with a different request (any field) it
 * is a CONFLICT naming the fields that differ. Only creations in flight are kept here: a job's
 * state is never answered from memory.
 */
export class KeyedSubmissions {
  readonly #inFlight = new Map<string, Promise<SubmitResult>>();
  readonly #lookup: (jobKey: string) => Promise<TJob | null>;

  constructor(lookup: (jobKey: string) => Promise<TJob | null>) {
    this.#lookup = lookup;
  }

  submit(
    request: TSubmitJobParsed & { jobKey: string },
    ownerId: string | null,
    create: () => Promise<SubmitResult>,
  ): Promise<SubmitResult> {
    const { jobKey } = request;
    const inFlight = this.#inFlight.get(jobKey);
    let result: Promise<SubmitResult>;
    if (inFlight) {
      // Stored once its creation resolves (a submit is acknowledged once durable): read it there.
      result = inFlight.then(async (r) => ({ job: (await this.#lookup(jobKey)) ?? r.job, created: false }));
    } else {
      result = (async () => {
        const existing = await this.#lookup(jobKey);
        return existing ? { job: existing, created: false } : create();
      })();
      this.#inFlight.set(jobKey, result);
      const settled = () => {
        if (this.#inFlight.get(jobKey) === result) this.#inFlight.delete(jobKey);
      };
      result.then(settled, settled);
    }
    return result.then((r) => {
      // A key names one owner's job: another token gets neither that job nor a say over it.
      if (r.job.ownerId !== null && r.job.ownerId !== ownerId) {
        throw requestFailure(
          "FORBIDDEN",
          `job key "${jobKey}" belongs to another trainer's token (${r.job.ownerId}); use a job key of your own, or send the token that submitted it`,
          { details: { jobKey, ownerId: r.job.ownerId } },
        );
      }
      const fields = differingSubmitFields(r.job, request);
      if (fields.length > 0) {
        throw requestFailure(
          "CONFLICT",
          `job key "${jobKey}" already belongs to job ${r.job.id}, submitted with a different ${fields.join(", ")}; send the same request to get that job, or use a new jobKey`,
          { details: { jobKey, jobId: r.job.id, fields } },
        );
      }
      return r;
    });
  }
}
