import type { TRun } from "@raas/shared";
import type { Command } from "commander";
import type { CliContext } from "../cli-context";
import type { RaasClient } from "../client";
import { printJson, table } from "../output";

function row(run: TRun) {
  return {
    id: run.id,
    name: run.name,
    model: run.model,
    dataset: run.dataset,
    status: run.status,
    steps: run.stepCount,
    created: new Date(run.createdAtMs).toISOString().replace(/\.\d{3}Z$/, "Z"),
  };
}

export function declareRuns(program: Command, context: CliContext): void {
  const runs = program.command("runs").description("training runs");
  runs
    .command("list")
    .description("training runs, newest first")
    .option("--limit <n>", "at most N runs, 1 to 1000", "100")
    .option("--json", "print the runs as JSON")
    .action(async (options: { limit: string; json?: boolean }) => {
      context.setExitCode(await listRuns(context.client(), options));
    });
  runs
    .command("archive")
    .description("admin: move a finished run's trajectories to <runId>.jsonl.gz on the server")
    .argument("[runId]", "training run id")
    .option("--json", "print the outcome as JSON")
    .action(async (runId: string | undefined, options: { json?: boolean }) => {
      context.setExitCode(await archiveRun(context.client(), runId, options));
    });
}

async function listRuns(client: RaasClient, values: { limit: string; json?: boolean }): Promise<number> {
  const limit = Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1_000)
    throw new Error(`--limit must be a whole number from 1 to 1000, got "${values.limit}"`);
  const { items } = await client.runs.list.query({ limit });
  if (values.json) printJson({ items });
  else console.log(items.length === 0 ? "no training runs yet" : table(items.map(row)));
  return 0;
}

async function archiveRun(
  client: RaasClient,
  runId: string | undefined,
  values: { json?: boolean },
): Promise<number> {
  if (!runId) throw new Error("raas runs archive needs a run id (see raas runs archive --help)");
  const outcome = await client.runs.archive.mutate({ runId });
  if (values.json) printJson(outcome);
  else
    console.log(
      outcome.archivedJobs === 0
        ? `run ${runId}: nothing left to archive (${outcome.file})`
        : `run ${runId}: archived ${outcome.archivedJobs} trajectories, ${outcome.archivedBytes} compressed bytes, to ${outcome.file}`,
    );
  return 0;
}
