import { isTerminalStatus, type TJob } from "@raas/shared";
import type { JobEventListener, WaitResult } from "../engine.types";
import type { Clock } from "../ports/clock.port";

/**
 * How often a wait re-reads its unfinished jobs from the store, in ms: events arrive at most once
 * (a bus loss, a worker killed between its commit and its publish), so a wait never relies on
 * them alone.
 */
const WAIT_STORE_RECHECK_MS = 5_000;

/** Store reads in flight at once while a wait reads its jobs (every read goes to the store). */
const READS_AT_ONCE = 16;

export interface WaitDeps {
  /** The job as the store holds it. */
  getJob(id: string): Promise<TJob>;
  subscribe(listener: JobEventListener): () => void;
  clock: Clock;
  /** Default `WAIT_STORE_RECHECK_MS`. */
  recheckMs?: number;
}

/** The more recent of two views of one job (terminal wins a tie). */
function newer(a: TJob | undefined, b: TJob): TJob {
  if (!a) return b;
  if (a.updatedAtMs !== b.updatedAtMs) return a.updatedAtMs > b.updatedAtMs ? a : b;
  return isTerminalStatus(b.status) ? b : a;
}

/**
 * Long-poll until every job is terminal, `timeoutMs` passes, or `signal` aborts. Subscribes before
 * reading the jobs, so a job finishing in between is never missed; re-reads the unfinished ones
 * from the store every `recheckMs`, so a lost event delays the answer, never withholds it.
 * Unknown ids throw NOT_FOUND.
 */
export async function waitForJobs(
  ids: readonly string[],
  options: { timeoutMs: number; signal?: AbortSignal },
  deps: WaitDeps,
): Promise<WaitResult> {
  const unique = [...new Set(ids)];
  const wanted = new Set(unique);
  const jobs = new Map<string, TJob>();
  const deadlineMs = deps.clock.now() + options.timeoutMs;
  const recheckMs = deps.recheckMs ?? WAIT_STORE_RECHECK_MS;
  let wake: (() => void) | null = null;
  const unfinished = () => unique.filter((id) => !isTerminalStatus(jobs.get(id)?.status ?? "submitted"));
  const read = async (which: readonly string[]) => {
    for (let start = 0; start < which.length; start += READS_AT_ONCE) {
      const chunk = which.slice(start, start + READS_AT_ONCE);
      const fetched = await Promise.all(chunk.map((id) => deps.getJob(id)));
      for (const job of fetched) jobs.set(job.id, newer(jobs.get(job.id), job));
    }
  };
  const unsubscribe = deps.subscribe((event) => {
    if (!wanted.has(event.job.id)) return;
    jobs.set(event.job.id, newer(jobs.get(event.job.id), event.job));
    if (unfinished().length === 0) wake?.();
  });
  try {
    await read(unique);
    while (unfinished().length > 0 && !options.signal?.aborted) {
      const remainingMs = deadlineMs - deps.clock.now();
      if (remainingMs <= 0) break;
      const woken = await new Promise<"event" | "timer">((resolve) => {
        const cancelTimer = deps.clock.setTimer(() => wake?.(), Math.min(recheckMs, remainingMs));
        const onAbort = () => wake?.();
        const settle = (why: "event" | "timer") => {
          wake = null;
          cancelTimer();
          options.signal?.removeEventListener("abort", onAbort);
          resolve(why);
        };
        wake = () => settle(unfinished().length === 0 ? "event" : "timer");
        options.signal?.addEventListener("abort", onAbort, { once: true });
      });
      if (woken === "event" || options.signal?.aborted) break;
      await read(unfinished());
    }
  } finally {
    unsubscribe();
  }
  const list = unique.map((id) => jobs.get(id) as TJob);
  return { jobs: list, done: list.every((job) => isTerminalStatus(job.status)) };
}
