import { z } from "zod";

/**
 * `alive` is a worker's liveness beat on the bus, sent every heartbeat interval whatever its store
 * writes are doing: a worker whose stored heartbeat lags behind a backlog of writes (after a
 * database outage) but that still beats on the bus is not lost.
 */
const WORKER_BUS_EVENTS = ["registered", "draining", "resumed", "stopped", "lost", "alive"] as const;

/** What goes on `BUS_CHANNELS.workers`: one worker's lifecycle change. */
const ZWorkerBusMessage = z.object({
  type: z.enum(WORKER_BUS_EVENTS),
  workerId: z.string(),
  atMs: z.number(),
});
export type TWorkerBusMessage = z.infer<typeof ZWorkerBusMessage>;

/** The message, or null when it is not one (the bus carries strings from other processes). */
export function parseWorkerBusMessage(message: string): TWorkerBusMessage | null {
  try {
    const parsed = ZWorkerBusMessage.safeParse(JSON.parse(message));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
