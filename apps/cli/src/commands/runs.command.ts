import { parseArgs } from "node:util";
import type { TRun } from "@raas/shared";
import type { RaasClient } from "../client";
import { printJson, table } from "../output";

export const RUNS_HELP = `raas runs list [--limit N] [--json]     (training runs, newest first; default 100)
raas runs archive <runId> [--json]      (admin: move a finished run's trajectories to <runId>.jsonl.gz on the server)`;

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

export async function runsCommand(client: RaasClient, argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { limit: { type: "string", default: "100" }, json: { type: "boolean", default: false } },
  });
  switch (sub) {
    case "list": {
      const limit = Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1_000)
        throw new Error(`--limit must be a whole number from 1 to 1000, got "${values.limit}"`);
      const { items } = await client.runs.list.query({ limit });
      if (values.json) printJson({ items });
      else console.log(items.length === 0 ? "no training runs yet" : table(items.map(row)));
      return 0;
    }
    case "archive": {
      const runId = positionals[0];
      if (!runId) throw new Error(`raas runs archive needs a run id\nusage:\n${RUNS_HELP}`);
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
    default:
      throw new Error(`unknown runs command "${sub ?? ""}"\nusage:\n${RUNS_HELP}`);
  }
}
