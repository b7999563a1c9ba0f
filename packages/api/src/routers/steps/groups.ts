import { viewerProcedure } from "../../trpc";
import { requireBatches } from "../runs/require-batches";
import { ZStepIdInput } from "../runs/run.schema";
import { ZGroupItems } from "./step.schema";

/** Every group of a step (running, handed out, dropped, withheld, carried, cancelled), without trajectories. */
export const groups = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/steps/{stepId}/groups",
      operationId: "listStepGroups",
      summary: "Every group of a step with its decision, state and members (no trajectories).",
      description:
        "What was decided about each group and why: its members' jobs, rewards, failure kinds, attempts and staleness. Use `nextStepGroups` or `streamStepGroups` for the handed-out groups' trajectories. 404 for an unknown step id; 503 when the server runs no batch system.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZStepIdInput)
  .output(ZGroupItems)
  .query(async ({ ctx, input }) => ({ items: await requireBatches(ctx).system.listGroups(input.stepId) }));
