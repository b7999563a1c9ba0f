import { RaasError } from "@raas/shared";
import { z } from "zod";
import { viewerProcedure } from "../../trpc";
import { requireSandboxEvents } from "./require-sandbox-events";
import { ZSandboxId, ZSandboxView } from "./sandbox.schema";

export const ZGetSandboxRequest = z.object({ id: ZSandboxId }).strict();
export const ZGetSandboxResponse = z.object({ sandbox: ZSandboxView });

/** One sandbox as its events describe it (timings, limits, crash detail); 404 for an unknown id. */
export const get = viewerProcedure
  .input(ZGetSandboxRequest)
  .output(ZGetSandboxResponse)
  .query(async ({ ctx, input }) => {
    const sandbox = await requireSandboxEvents(ctx).getSandbox(input.id);
    if (sandbox) return { sandbox };
    throw new RaasError("NOT_FOUND", `no sandbox with id "${input.id}" has been recorded`);
  });
