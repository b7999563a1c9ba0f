// How each fault is done to the deployment. Every function returns once the fault is over (the
// dependency back, the file removed, the drained worker gone): the time it returns is the fault's
// end, from which recovery is measured. Replacing a killed process is the supervisor's job.
import type { RunningSimulator } from "@raas/simulator";
import type { Deployment } from "../../apps/server/test/distributed/support/deployment";
import type { FaultKind, FaultRecord } from "./chaos.types";
import type { SandboxDisks } from "./sandbox-disks";
import type { SlotWorker, Supervisor } from "./supervisor";

/** Stop grace (RAAS_WORKER_STOP_GRACE_MS) + abort grace + exit, with room to spare. */
const DRAIN_LIMIT_MS = 90_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface FaultDurations {
  /** How long the simulator stays down. Default 20_000. */
  inferenceOutageMs: number;
  /** How long a worker's sandbox disk stays full. Default 30_000. */
  diskFullMs: number;
}

export interface FaultContext {
  deployment: Deployment;
  supervisor: Supervisor;
  simulator: RunningSimulator;
  disks: SandboxDisks;
  random: () => number;
  durations: FaultDurations;
}

type Injected = Omit<FaultRecord, "outstandingAtStart">;

export async function injectFault(kind: FaultKind, ctx: FaultContext): Promise<Injected> {
  switch (kind) {
    case "worker-kill":
      return killWorker(ctx);
    case "worker-sigterm":
      return drainWorker(ctx);
    case "server-kill":
      return killServer(ctx);
    case "redis-restart":
      return timed(kind, "private redis-server stopped (data gone) and started", () =>
        ctx.deployment.redis.restart(),
      );
    case "postgres-restart-10s":
      return restartPostgres(ctx, kind, 10_000);
    case "postgres-restart-60s":
      return restartPostgres(ctx, kind, 60_000);
    case "inference-outage":
      return timed(kind, `simulator down ${ctx.durations.inferenceOutageMs} ms`, async () => {
        await ctx.simulator.stopListening();
        await sleep(ctx.durations.inferenceOutageMs);
        await ctx.simulator.listenAgain();
      });
    case "sandbox-disk-full":
      return fillDisk(ctx);
  }
}

async function timed(kind: FaultKind, detail: string, act: () => Promise<void>): Promise<Injected> {
  const startedAtMs = Date.now();
  await act();
  return { kind, startedAtMs, endedAtMs: Date.now(), detail };
}

function skipped(kind: FaultKind, why: string): Injected {
  const now = Date.now();
  return { kind, startedAtMs: now, endedAtMs: now, detail: "-", skipped: why };
}

function pickWorker(ctx: FaultContext): SlotWorker | null {
  const live = ctx.supervisor.liveWorkers().sort((a, b) => a.slot - b.slot);
  return live[Math.floor(ctx.random() * live.length)] ?? null;
}

async function killWorker(ctx: FaultContext): Promise<Injected> {
  const target = pickWorker(ctx);
  if (!target) return skipped("worker-kill", "no worker running");
  ctx.supervisor.expectExit(target.worker.pid);
  const startedAtMs = Date.now();
  process.kill(target.worker.pid, "SIGKILL");
  await target.worker.exited;
  return {
    kind: "worker-kill",
    startedAtMs,
    endedAtMs: startedAtMs,
    detail: `kill -9 ${target.worker.id} (slot ${target.slot})`,
  };
}

async function drainWorker(ctx: FaultContext): Promise<Injected> {
  const target = pickWorker(ctx);
  if (!target) return skipped("worker-sigterm", "no worker running");
  ctx.supervisor.expectExit(target.worker.pid);
  const startedAtMs = Date.now();
  // A drain that outlives its grace by far is a hang: end it as an orchestrator would.
  const hung = setTimeout(() => void target.worker.kill(), DRAIN_LIMIT_MS);
  const code = await target.worker.stop();
  clearTimeout(hung);
  return {
    kind: "worker-sigterm",
    startedAtMs,
    endedAtMs: Date.now(),
    detail: `SIGTERM ${target.worker.id} (slot ${target.slot}), drained, exit ${code}`,
  };
}

async function killServer(ctx: FaultContext): Promise<Injected> {
  const server = ctx.supervisor.server;
  if (!server) return skipped("server-kill", "no server running");
  ctx.supervisor.expectExit(server.proc.pid);
  const startedAtMs = Date.now();
  await server.proc.killHard();
  return {
    kind: "server-kill",
    startedAtMs,
    endedAtMs: startedAtMs,
    detail: `kill -9 server ${server.proc.pid}`,
  };
}

async function restartPostgres(ctx: FaultContext, kind: FaultKind, downMs: number): Promise<Injected> {
  const postgres = ctx.deployment.postgres;
  if (!postgres) return skipped(kind, "the deployment has no PostgreSQL of its own");
  return timed(kind, `pg_ctl -m immediate stop, ${downMs / 1_000} s down, start`, () =>
    postgres.restart({ mode: "immediate", downMs }),
  );
}

async function fillDisk(ctx: FaultContext): Promise<Injected> {
  const target = pickWorker(ctx);
  const slot = target?.slot ?? Math.floor(ctx.random() * ctx.disks.slots);
  const startedAtMs = Date.now();
  let filled = ctx.disks.fill(slot);
  // Sandboxes closing meanwhile free space: keep the disk full for the whole window.
  const until = startedAtMs + ctx.durations.diskFullMs;
  while (Date.now() < until) {
    await sleep(500);
    filled += ctx.disks.fill(slot);
  }
  ctx.disks.free(slot);
  return {
    kind: "sandbox-disk-full",
    startedAtMs,
    endedAtMs: Date.now(),
    detail: `slot ${slot} tmpfs full for ${ctx.durations.diskFullMs / 1_000} s (${Math.round(filled / 2 ** 20)} MiB written)`,
  };
}
