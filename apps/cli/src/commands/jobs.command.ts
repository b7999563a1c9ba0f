import { parseArgs } from "node:util";
import type { TJob, TJobListRequest } from "@raas/shared";
import type { RaasClient } from "../client";
import { formatMs, printJson, table } from "../output";

export const JOBS_HELP = `raas jobs list [--status S] [--stage S] [--kind K] [--failure-kind F] [--failure-label L] [--search Q] [--limit N] [--cursor C] [--json]
raas jobs get <id> [--json]
raas jobs cancel <id> | --group <id> | --batch <id> [--json]`;

type JobRow = Pick<TJob, "id" | "kind" | "status" | "stage" | "reward" | "failure" | "timings">;

/** `agent@eval`, and its label when it has one (`agent@eval tampered`: a grade voided by lying canaries). */
export function failureColumn(failure: JobRow["failure"]): string | null {
  if (!failure) return null;
  const where = `${failure.kind}@${failure.stage}`;
  return failure.label ? `${where} ${failure.label}` : where;
}

export function row(job: JobRow) {
  return {
    id: job.id,
    kind: job.kind,
    status: job.status,
    stage: job.stage,
    reward: job.reward,
    failure: failureColumn(job.failure),
    init: formatMs(job.timings.initMs),
    run: formatMs(job.timings.runMs),
    eval: formatMs(job.timings.evalMs),
  };
}

export async function jobsCommand(client: RaasClient, argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      status: { type: "string" },
      stage: { type: "string" },
      kind: { type: "string" },
      "failure-kind": { type: "string" },
      "failure-label": { type: "string" },
      search: { type: "string" },
      limit: { type: "string" },
      cursor: { type: "string" },
      group: { type: "string" },
      batch: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  switch (sub) {
    case "list": {
      const query = {
        status: values.status,
        stage: values.stage,
        kind: values.kind,
        failureKind: values["failure-kind"],
        failureLabel: values["failure-label"],
        search: values.search,
        cursor: values.cursor,
        limit: values.limit === undefined ? undefined : Number(values.limit),
      };
      const page = await client.jobs.list.query(
        Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as TJobListRequest,
      );
      if (values.json) printJson(page);
      else {
        console.log(page.items.length === 0 ? "no jobs match" : table(page.items.map(row)));
        if (page.nextCursor) console.log(`more: raas jobs list --cursor ${page.nextCursor}`);
      }
      return 0;
    }
    case "get": {
      const [id] = positionals;
      if (!id) throw new Error(`missing job id\nusage: ${JOBS_HELP}`);
      const job = await client.jobs.get.query({ id });
      if (values.json) printJson(job);
      else {
        console.log(table([row(job)]));
        if (job.failure)
          console.log(
            `failure: ${job.failure.kind}${job.failure.label ? ` (${job.failure.label})` : ""} in ${job.failure.stage}: ${job.failure.message}`,
          );
        console.log(
          `queued ${formatMs(job.timings.queueMs)}, attempts ${job.attempts}, trainable ${job.trainable ?? "-"}`,
        );
      }
      return 0;
    }
    case "cancel": {
      const [id] = positionals;
      const target = id
        ? { jobId: id }
        : values.group
          ? { groupId: values.group }
          : values.batch
            ? { batchId: values.batch }
            : null;
      if (!target) throw new Error(`give a job id, --group or --batch\nusage: ${JOBS_HELP}`);
      const result = await client.jobs.cancel.mutate(target);
      if (values.json) printJson(result);
      else console.log(`cancelled ${result.cancelled.length} job(s)`);
      return 0;
    }
    default:
      throw new Error(`unknown jobs command "${sub ?? ""}"\nusage:\n${JOBS_HELP}`);
  }
}
