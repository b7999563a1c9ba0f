import { failureOf, ZId, ZJob } from "@raas/shared";
import { z } from "zod";
import type { ApiJobEvent } from "../../engine.port";
import { viewerProcedure } from "../../trpc";
import { zAsyncIterableOf } from "../../util/async-iterable.schema";
import { EventBuffer } from "../../util/event-buffer";

/** Events a subscriber may lag behind before its stream is ended. */
const MAX_BUFFERED_EVENTS = 10_000;

const ZEventsRequest = z
  .object({
    /** Only events of these jobs; their current state is sent first. */
    jobIds: z.array(ZId).min(1).max(1_000).optional(),
    groupId: ZId.optional(),
    batchId: ZId.optional(),
  })
  .strict()
  .optional();
const ZJobEvent = z.object({ type: z.literal("job.updated"), job: ZJob });
const ZEventsResponse = zAsyncIterableOf(ZJobEvent);

/** Live job updates (served over SSE), optionally only for some jobs, a group or a batch. */
export const events = viewerProcedure
  .input(ZEventsRequest)
  .output(ZEventsResponse)
  .subscription(async function* ({ ctx, input, signal }) {
    const ids = input?.jobIds ? new Set(input.jobIds) : null;
    const matches = (event: ApiJobEvent): boolean =>
      (ids === null || ids.has(event.job.id)) &&
      (input?.groupId === undefined || event.job.groupId === input.groupId) &&
      (input?.batchId === undefined || event.job.batchId === input.batchId);
    const buffer = new EventBuffer<ApiJobEvent>(MAX_BUFFERED_EVENTS);
    const unsubscribe = ctx.engine.subscribe((event) => {
      if (matches(event)) buffer.push(event);
    });
    try {
      if (ids !== null) {
        for (const id of ids) {
          try {
            const job = await ctx.engine.getJob(id);
            if (matches({ type: "job.updated", job })) yield { type: "job.updated" as const, job };
          } catch (error) {
            const failure = failureOf(error);
            if (!(failure?.kind === "request" && failure.code === "NOT_FOUND")) throw error;
          }
        }
      }
      yield* buffer.drain(signal);
    } finally {
      unsubscribe();
      buffer.close();
    }
  });
