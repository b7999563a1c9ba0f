import { SANDBOX_STATES, ZId, zIdString } from "@raas/shared";
import { z } from "zod";

const ZMs = z.number();

/** One stored sandbox lifecycle event. */
export const ZSandboxEventView = z.object({
  sandboxId: z.string().describe("The sandbox the event belongs to."),
  jobId: z.string().nullable().describe("The job the sandbox ran for; null before it was assigned."),
  hostId: z.string().nullable().describe("Worker or host that ran the sandbox, e.g. `node-3:4711`."),
  type: z
    .string()
    .describe("created | ready | assigned | limit_hit | crashed | start_failed | start_cancelled | closed"),
  state: z.enum(SANDBOX_STATES).describe("The sandbox's state when the event happened."),
  detail: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe(
      "Per type: readyMs (ready), limit and tool (limit_hit), exitCode, signal, stderrTail (crashed), reason (closed).",
    ),
  atMs: ZMs.describe("When the event happened, in milliseconds since the epoch."),
});

/** One sandbox as its events describe it. */
export const ZSandboxView = z.object({
  id: z.string().describe("Sandbox id."),
  jobId: z.string().nullable().describe("The job it ran for; null for a pooled sandbox never handed out."),
  hostId: z.string().nullable().describe("Worker or host that ran it."),
  runtime: z.string().describe("bubblewrap | apptainer | local"),
  state: z.enum(SANDBOX_STATES).describe("Last known state."),
  createdAtMs: ZMs.describe("When it was created, in milliseconds since the epoch."),
  readyMs: z.number().nullable().describe("created → ready, in ms; null when it never became ready."),
  closedAtMs: z
    .number()
    .nullable()
    .describe("When it closed, in milliseconds since the epoch; null while open."),
  lifetimeMs: z.number().nullable().describe("created → closed, in ms."),
  closeReason: z
    .string()
    .nullable()
    .describe(
      "closed | crashed | start_failed | cancelled | wall_time | cpu_total | memory_total | workspace_size | worker_lost | worker_stopped",
    ),
  limitKind: z.string().nullable().describe("The first limit the sandbox hit."),
  limitHits: z.number().int().describe("How many limit_hit events it had."),
  exitCode: z
    .number()
    .int()
    .nullable()
    .describe("Exit code of the sandbox's launcher when it crashed, else null."),
  exitSignal: z.string().nullable().describe("Signal that ended the sandbox when it crashed, e.g. SIGKILL."),
  stderrTail: z
    .string()
    .nullable()
    .describe("Last KiB of the launcher's stderr when it crashed or failed to start."),
  error: z.string().nullable().describe("Why it crashed or failed to start."),
  updatedAtMs: ZMs.describe("Time of its latest event, in milliseconds since the epoch."),
});

export const ZSandboxSummary = z.object({
  sandboxes: z.number().int().describe("Sandboxes seen."),
  byState: z.record(z.string(), z.number().int()).describe("Sandboxes by last known state."),
  byCloseReason: z.record(z.string(), z.number().int()).describe("Closed sandboxes by close reason."),
  limitHits: z.record(z.string(), z.number().int()).describe("limit_hit events by limit kind."),
  crashed: z.number().int().describe("Sandboxes that crashed (close reason crashed)."),
  startFailed: z
    .number()
    .int()
    .describe(
      "Sandboxes that failed to start (close reason start_failed); cancelled starts are not counted.",
    ),
  cancelled: z
    .number()
    .int()
    .describe("Sandboxes whose start was cancelled because their job was (close reason cancelled)."),
  live: z
    .number()
    .int()
    .describe(
      "Sandboxes not closed yet (starting, ready, busy, closing). Recovery closes the records of a lost or stopped worker (close reason worker_lost / worker_stopped), so these belong to live hosts.",
    ),
  meanReadyMs: z
    .number()
    .nullable()
    .describe("Mean created → ready ms over the sandboxes that became ready."),
  meanLifetimeMs: z.number().nullable().describe("Mean lifetime in ms over the closed sandboxes."),
});

/** Filters shared by `sandboxes.events` and `sandboxes.summary`. */
export const ZSandboxHostId = zIdString(300).describe("Only sandboxes of this worker or host.");
export const ZSandboxSinceMs = z
  .number({ error: "expected milliseconds since the epoch (a number)" })
  .min(0)
  .max(8_640_000_000_000_000, { error: "at most 8640000000000000 (the latest date a timestamp can hold)" })
  .describe("Only events (summary: sandboxes created) at or after this time.");
export const ZSandboxId = ZId.describe("A sandbox id, e.g. `raas-sb-mabc12-0f3a9c1e`.");
