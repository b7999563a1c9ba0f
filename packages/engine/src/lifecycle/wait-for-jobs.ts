import { isTerminalStatus, type TJob } from "@raas/shared";
import type { JobEventListener, WaitResult } from "../engine.types";
import type { Clock } from "../ports/clock.port";

export interface WaitDeps {
  getJob(id: string): Promise<TJob>;
  subscribe(listener: JobEventListener): () => void;
  clock: Clock;
}

/** The more recent of two views of one job (terminal wins a tie). */
function newer(a: TJob | undefined, b: TJob): TJob {
  if (!a) return b;
  if (a.updatedAtMs !== b.updatedAtMs) return a.updatedAtMs > b.updatedAtMs ? a : b;
  return isTerminalStatus(b.status) ? b : a;
}

/**
 * Long-poll until every job is terminal, `timeoutMs` passes, or `signal` aborts. Subscribes before
 * reading the jobs, so a job finishing in between is never missed. Unknown ids throw NOT_FOUND.
 */
export async function waitForJobs(
  ids: readonly string[],
  options: { timeoutMs: number; signal?: AbortSignal },
  deps: WaitDeps,
): Promise<WaitResult> {
  const unique = [...new Set(ids)];
  const wanted = new Set(unique);
  const jobs = new Map<string, TJob>();
  let wake: (() => void) | null = null;
  const pending = () => unique.some((id) => !isTerminalStatus(jobs.get(id)?.status ?? "submitted"));
  const unsubscribe = deps.subscribe((event) => {
    if (!wanted.has(event.job.id)) return;
    jobs.set(event.job.id, newer(jobs.get(event.job.id), event.job));
    if (!pending()) wake?.();
  });
  try {
    for (const id of unique) jobs.set(id, newer(jobs.get(id), await deps.getJob(id)));
    if (pending() && !options.signal?.aborted) {
      await new Promise<void>((resolve) => {
        const cancelTimer = deps.clock.setTimer(() => wake?.(), options.timeoutMs);
        const onAbort = () => wake?.();
        wake = () => {
          wake = null;
          cancelTimer();
          options.signal?.removeEventListener("abort", onAbort);
          resolve();
        };
        options.signal?.addEventListener("abort", onAbort, { once: true });
      });
    }
  } finally {
    unsubscribe();
  }
  const list = unique.map((id) => jobs.get(id) as TJob);
  return { jobs: list, done: list.every((job) => isTerminalStatus(job.status)) };
}
