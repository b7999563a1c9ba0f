import { viewerProcedure } from "../../trpc";
import { ZEnvironmentNameRequest, ZEnvironmentResponse } from "./environment.schema";
import { requireEnvironment, requireEnvironments } from "./require-environments";

/** One registered environment with its oracle check, task by task; 404 for an unknown name. */
export const get = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/environments/{name}",
      operationId: "getEnvironment",
      summary: "One registered environment with its last oracle check, task by task.",
      description: "404 for an unknown name; 503 when the server has no environment registry.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZEnvironmentNameRequest)
  .output(ZEnvironmentResponse)
  .query(async ({ ctx, input }) => ({
    environment: await requireEnvironment(requireEnvironments(ctx), input.name),
  }));
