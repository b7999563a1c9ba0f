import { requestFailure } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { requireSandboxEvents } from "./require-sandbox-events";
import { ZSandboxId, ZSandboxView } from "./sandbox.schema";

const ZGetSandboxRequest = z.object({ id: ZSandboxId }).strict().meta({ description: "Which sandbox." });
const ZGetSandboxResponse = z
  .object({ sandbox: ZSandboxView.describe("The sandbox's row.") })
  .meta({ description: "One sandbox." });

/** One sandbox as its events describe it (timings, limits, crash detail); 404 for an unknown id. */
export const get = viewerProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/api/v1/sandboxes/{id}",
      operationId: "getSandbox",
      summary: "One sandbox as its events describe it.",
      description:
        "Job, host, runtime, last state, created-to-ready ms, lifetime, close reason, first limit hit, exit code and signal, stderr tail. 404 for an id never recorded; 503 when the server records no sandbox events.",
      errors: ["UNAVAILABLE"],
    },
  })
  .input(ZGetSandboxRequest)
  .output(ZGetSandboxResponse)
  .query(async ({ ctx, input }) => {
    const sandbox = await requireSandboxEvents(ctx).getSandbox(input.id);
    if (sandbox) return { sandbox };
    throw requestFailure("NOT_FOUND", `no sandbox with id "${input.id}" has been recorded`);
  });
