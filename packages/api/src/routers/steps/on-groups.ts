import { ZGroupResult, ZId, ZStep } from "@raas/shared";
import { tracked } from "@trpc/server";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { zTrackedIterableOf } from "../../util/tracked-iterable.schema";
import { requireBatches } from "../runs/require-batches";
import { ZAfterSeq } from "./step.schema";

/** How long one wait for the next groups lasts before it is renewed, in ms (tRPC pings meanwhile). */
const WAIT_SLICE_MS = 30_000;
/** Groups read from the batch system per wait. */
const GROUPS_PER_READ = 32;

const ZOnGroupsRequest = z
  .object({
    stepId: ZId.describe("The step's id (`stp_…`)."),
    afterSeq: ZAfterSeq,
    lastEventId: z
      .string()
      .regex(/^\d{1,15}$/, { error: "lastEventId is the seq of the last group received" })
      .nullish()
      .describe("Set by the tRPC client when it reconnects: the seq of the last group received."),
  })
  .strict();

const ZStepGroupEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("group"), group: ZGroupResult }),
  z.object({ type: z.literal("done"), step: ZStep }),
]);

/**
 * A step's handed-out groups as they come (each tracked by its seq, so the client resumes after a
 * reconnect), then one `done` event with the final step, and the stream ends.
 */
export const onGroups = viewerProcedure
  .input(ZOnGroupsRequest)
  .output(zTrackedIterableOf(ZStepGroupEvent))
  .subscription(async function* ({ ctx, input, signal }) {
    const { system } = requireBatches(ctx);
    let afterSeq = Math.max(input.afterSeq, input.lastEventId ? Number(input.lastEventId) : 0);
    while (!signal?.aborted) {
      const next = await system.nextGroups(input.stepId, {
        afterSeq,
        limit: GROUPS_PER_READ,
        timeoutMs: WAIT_SLICE_MS,
        ...(signal && { signal }),
      });
      for (const group of next.groups) {
        afterSeq = group.seq;
        yield tracked(String(group.seq), { type: "group" as const, group });
      }
      if (next.done) {
        yield { type: "done" as const, step: next.step };
        return;
      }
    }
  });
