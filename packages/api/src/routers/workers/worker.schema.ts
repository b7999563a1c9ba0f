import { STAGES, zIdString } from "@raas/shared";
import { z } from "zod";
import { ZWorkerImagesView } from "../images/image.schema";

const WORKER_STATUSES = ["active", "draining", "stopped", "lost"] as const;

/** A worker id as workers register it, e.g. `node-3:4711`. */
const ZWorkerId = zIdString(300).describe("A worker id, e.g. `node-3:4711` (hostname:pid).");

const ZPoolOccupancy = z
  .object({
    concurrency: z.number().int().describe("The pool's size: jobs of this stage it runs at once."),
    active: z.number().int().describe("Jobs of this stage it was running at the last heartbeat."),
  })
  .meta({ id: "WorkerPoolOccupancy", description: "One stage pool of a worker and how full it is." });

/** One registered worker with its pools, sandboxes and heartbeat. */
export const ZWorkerView = z
  .object({
    id: z.string().describe("The worker's id, unique per process start (e.g. `node-3:4711`)."),
    hostname: z.string().describe("The machine it runs on."),
    pid: z.number().int().describe("Its process id on that machine."),
    labels: z.array(z.string()).describe("Node labels jobs can require (e.g. `apptainer`)."),
    status: z
      .enum(WORKER_STATUSES)
      .describe(
        "`active` takes work; `draining` finishes its jobs and takes none; `stopped` shut down cleanly; `lost` stopped heartbeating and its jobs were handed elsewhere.",
      ),
    isDraining: z.boolean().describe("True while an admin has it drained (status `draining`)."),
    isHealthy: z
      .boolean()
      .describe(
        "False while it runs but takes no new work of its own accord (its sandboxes fail to start); `unhealthyReason` says why.",
      ),
    unhealthyReason: z
      .string()
      .nullable()
      .describe("Why it is unhealthy, as it reported with its last heartbeat; null while healthy."),
    pools: z
      .object(
        Object.fromEntries(
          STAGES.map((stage) => [
            stage,
            ZPoolOccupancy.optional().describe(`Its ${stage.toUpperCase()} pool; absent when it runs none.`),
          ]),
        ) as Record<(typeof STAGES)[number], z.ZodOptional<typeof ZPoolOccupancy>>,
      )
      .describe("The stage pools it runs, with their occupancy at the last heartbeat."),
    sandboxes: z.number().int().describe("Live sandboxes it held at the last heartbeat."),
    startedAtMs: z.number().describe("When it registered, ms since the Unix epoch."),
    heartbeatAtMs: z.number().describe("Its last heartbeat, ms since the Unix epoch."),
    heartbeatAgeMs: z.number().describe("How long ago that heartbeat was, in ms, when this answer was made."),
    stoppedAtMs: z
      .number()
      .nullable()
      .describe("When it stopped, ms since the Unix epoch; null unless `stopped`."),
    images: ZWorkerImagesView.nullable().describe(
      "Its image cache at the last heartbeat: images held, bytes, hits and unpack times, prefetch progress; null when it reports none.",
    ),
  })
  .meta({ id: "Worker", description: "One worker process: its pools, sandboxes and heartbeat." });
export type TWorkerView = z.infer<typeof ZWorkerView>;

/** Input of the procedures that act on one worker. */
export const ZWorkerIdRequest = z
  .object({ id: ZWorkerId })
  .strict()
  .meta({ description: "The worker to act on." });

/** Output of the procedures that act on one worker: its view after the change. */
export const ZWorkerResponse = z
  .object({ worker: ZWorkerView })
  .meta({ description: "The worker after the change." });
