import type { AppRouter } from "@raas/api";
import { createTRPCClient, httpLink } from "@trpc/client";
import { E2E_TOKENS, e2eMode, e2eUrls } from "./e2e-env";
import { holdWorkersInit } from "./worker-drain";

/** A tRPC client straight to the control plane (not through the dashboard), as a trainer would use. */
export function apiClient(role: keyof typeof E2E_TOKENS | "anonymous" = "trainer") {
  const { serverUrl } = e2eUrls();
  const headers = role === "anonymous" ? {} : { authorization: `Bearer ${E2E_TOKENS[role]}` };
  return createTRPCClient<AppRouter>({ links: [httpLink({ url: `${serverUrl}/trpc`, headers })] });
}

/** A short, unique tag for the job keys of one test, so tests never see each other's jobs. */
export function uniqueTag(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1_296).toString(36)}`;
}

/** Payload of a `sleep` job that finishes in about 30 ms. */
export const QUICK_SLEEP = { initMs: 5, runMs: 15, evalMs: 5 } as const;

/** Submits sleep jobs and waits until every one is terminal; returns their ids. */
export async function submitAndFinish(
  jobs: Array<{ jobKey: string; payload?: Record<string, unknown>; priority?: number }>,
): Promise<string[]> {
  const api = apiClient("trainer");
  const { results } = await api.jobs.submitMany.mutate({
    jobs: jobs.map((job) => ({
      kind: "sleep",
      jobKey: job.jobKey,
      payload: job.payload ?? QUICK_SLEEP,
      priority: job.priority ?? 0,
    })),
  });
  const ids = results.map((result) => result.job.id);
  const waited = await api.jobs.wait.query({ ids, timeoutMs: 30_000 });
  if (!waited.done) throw new Error(`jobs did not finish in 30 s: ${ids.join(", ")}`);
  return ids;
}

/**
 * Pauses INIT with the admin token, so jobs submitted next stay queued; returns what resumes it.
 * The server's own INIT pool goes to 0 (`system.setConcurrency`); in distributed mode, where the
 * worker processes run the pools, every worker is drained too, and resumed after.
 */
export async function pauseInit(): Promise<() => Promise<void>> {
  const admin = apiClient("admin");
  const before = (await admin.system.stats.query()).stages.init.concurrency;
  await admin.system.setConcurrency.mutate({ stage: "init", concurrency: 0 });
  const distributed = e2eMode() === "distributed";
  if (distributed) await holdWorkersInit(admin, true);
  return async () => {
    await admin.system.setConcurrency.mutate({ stage: "init", concurrency: before });
    if (distributed) await holdWorkersInit(admin, false);
  };
}
