import type { AppRouter } from "@raas/api";
import type { TRPCClient } from "@trpc/client";

type AdminClient = TRPCClient<AppRouter>;

/**
 * Holds or releases INIT in the worker processes of a distributed deployment: `workers.drain`
 * (no new job starts; started ones finish) or `workers.resume` on every active worker, then waits
 * until each one's heartbeat reports its INIT pool at 0 (held) or back above 0 (released), so a job
 * submitted afterwards provably waits (or runs). `system.setConcurrency` only sizes the server's
 * own pools, which an API-only server does not run.
 */
export async function holdWorkersInit(admin: AdminClient, hold: boolean): Promise<void> {
  const { workers } = await admin.workers.list.query({ includeStopped: false });
  const running = workers.filter((worker) => worker.status !== "lost" && worker.pools.init !== undefined);
  if (running.length === 0) throw new Error("the distributed deployment lists no worker with an INIT pool");
  for (const worker of running) {
    if (hold) await admin.workers.drain.mutate({ id: worker.id });
    else await admin.workers.resume.mutate({ id: worker.id });
  }
  const ids = new Set(running.map((worker) => worker.id));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const now = (await admin.workers.list.query({ includeStopped: false })).workers.filter((w) =>
      ids.has(w.id),
    );
    const settled = now.every((worker) =>
      hold ? worker.pools.init?.concurrency === 0 : (worker.pools.init?.concurrency ?? 0) > 0,
    );
    if (settled && now.length === ids.size) return;
    if (Date.now() > deadline)
      throw new Error(`workers did not ${hold ? "drain" : "resume"} within 30 s: ${JSON.stringify(now)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
