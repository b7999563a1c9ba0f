import { requestFailure } from "@raas/shared";
import { z } from "zod";
import { adminProcedure } from "../../trpc";
import { ZRunIdInput } from "./run.schema";

const ZArchiveRunResponse = z
  .object({
    runId: z.string().describe("The run's id."),
    archivedJobs: z
      .number()
      .int()
      .nonnegative()
      .describe("Jobs whose trajectories this call moved (0 when already archived)."),
    archivedBytes: z
      .number()
      .int()
      .nonnegative()
      .describe("Compressed bytes appended to the run's archive file."),
    file: z.string().describe("The archive file on the server (gzip JSONL, one line per job)."),
  })
  .meta({ id: "ArchiveRunResponse", description: "What archiving a run moved." });

/** Retention: a finished run's trajectories move to a gzip JSONL file; summaries stay queryable. Admin. */
export const archive = adminProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/api/v1/runs/{runId}/archive",
      operationId: "archiveRun",
      summary: "Archive a finished run's trajectories to compressed JSONL (admin).",
      description:
        "Moves the turns and tool calls of every finished job of the run out of the database into `<runId>.jsonl.gz` in the server's archive directory (one JSON line per job; `zcat` reads it). Job rows (status, reward, timings), steps and groups stay queryable, and `jobs.trajectory` / exports of an archived job are read back from the archive. Archiving again moves what is left (nothing). 404 for an unknown run id; 409 while the run is active (finish it first); 503 when the server has no database store.",
      errors: ["NOT_FOUND", "CONFLICT", "UNAVAILABLE"],
    },
  })
  .input(ZRunIdInput)
  .output(ZArchiveRunResponse)
  .mutation(async ({ ctx, input }) => {
    if (!ctx.archive) {
      throw requestFailure(
        "UNAVAILABLE",
        "this server keeps trajectories in memory (RAAS_STORE=memory), so there is nothing to archive; run it with the database store",
      );
    }
    const outcome = await ctx.archive.archiveRun(input.runId);
    ctx.logger.info({ ...outcome }, "training run archived");
    return outcome;
  });
