import { RaasError, type TJob } from "@raas/shared";
import type { SubmitResult } from "../engine.types";

/**
 * Idempotent submit by job key: one creation per key at a time in this process, and a store
 * lookup for keys created earlier (by this or another process). Reusing a key for a different
 * handler kind is a CONFLICT.
 */
export class KeyedSubmissions {
  readonly #inFlight = new Map<string, Promise<SubmitResult>>();
  readonly #lookup: (jobKey: string) => Promise<TJob | null>;

  constructor(lookup: (jobKey: string) => Promise<TJob | null>) {
    this.#lookup = lookup;
  }

  submit(jobKey: string, kind: string, create: () => Promise<SubmitResult>): Promise<SubmitResult> {
    const inFlight = this.#inFlight.get(jobKey);
    let result: Promise<SubmitResult>;
    if (inFlight) {
      result = inFlight.then((r) => ({ job: r.job, created: false }));
    } else {
      result = (async () => {
        const existing = await this.#lookup(jobKey);
        return existing ? { job: existing, created: false } : create();
      })();
      this.#inFlight.set(jobKey, result);
      result.catch(() => this.#inFlight.delete(jobKey));
    }
    return result.then((r) => {
      if (r.job.kind !== kind) {
        throw new RaasError(
          "CONFLICT",
          `job key "${jobKey}" already belongs to job ${r.job.id} of kind "${r.job.kind}", not "${kind}"`,
        );
      }
      return r;
    });
  }

  /** The job behind `jobKey` is terminal and stored; later submits find it through the lookup. */
  forget(jobKey: string): void {
    this.#inFlight.delete(jobKey);
  }
}
