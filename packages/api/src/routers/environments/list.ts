import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { ZEnvironmentView } from "./environment.schema";
import { requireEnvironments } from "./require-environments";

const ZListEnvironmentsRequest = z.object({}).strict().meta({ description: "No filters." });
const ZListEnvironmentsResponse = z
  .object({ environments: z.array(ZEnvironmentView).describe("Every environment, by name.") })
  .meta({ description: "The registered environments." });

/** Every registered environment with its task count and last oracle check, by name. */
export const list = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/environments",
      operationId: "listEnvironments",
      summary: "Registered environments with their task counts and last oracle checks.",
      description: "Every environment, by name. 503 when the server has no environment registry.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZListEnvironmentsRequest.optional())
  .output(ZListEnvironmentsResponse)
  .query(async ({ ctx }) => ({ environments: await requireEnvironments(ctx).store.list() }));
