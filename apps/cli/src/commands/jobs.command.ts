import {
  FAILURE_KINDS,
  FAILURE_LABELS,
  JOB_STATUSES,
  STAGES,
  type TJob,
  type TJobListRequest,
} from "@raas/shared";
import { type Command, Option } from "commander";
import type { CliContext } from "../cli-context";
import type { RaasClient } from "../client";
import { formatMs, printJson, table } from "../output";

type JobRow = Pick<TJob, "id" | "kind" | "status" | "stage" | "reward" | "failure" | "timings">;

/** `agent@eval`, and its label when it has one (`agent@eval tampered`: a grade voided by lying canaries). */
function failureColumn(failure: JobRow["failure"]): string | null {
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

interface ListOptions {
  status?: string;
  stage?: string;
  kind?: string;
  failureKind?: string;
  failureLabel?: string;
  search?: string;
  limit?: string;
  cursor?: string;
  json?: boolean;
}

interface CancelOptions {
  group?: string;
  batch?: string;
  json?: boolean;
}

export function declareJobs(program: Command, context: CliContext): void {
  const jobs = program.command("jobs").description("list, show and cancel jobs");
  jobs
    .command("list")
    .description("jobs matching the filters, newest first (a page; --cursor for the next)")
    .addOption(new Option("--status <status>", "only jobs in this status").choices(JOB_STATUSES))
    .addOption(new Option("--stage <stage>", "only jobs in (or stopped in) this stage").choices(STAGES))
    .option("--kind <kind>", "only jobs of this handler kind")
    .addOption(new Option("--failure-kind <kind>", "only failed jobs of this kind").choices(FAILURE_KINDS))
    .addOption(
      new Option("--failure-label <label>", "only failed jobs with this label").choices(FAILURE_LABELS),
    )
    .option("--search <text>", "substring of the job id or job key")
    .option("--limit <n>", "page size, 1 to 500 (default 50)")
    .option("--cursor <cursor>", "the page after this cursor")
    .option("--json", "print the page as JSON")
    .action(async (options: ListOptions) => {
      context.setExitCode(await listJobs(context.client(), options));
    });
  jobs
    .command("get")
    .description("one job: stage timings, failure, attempts")
    .argument("[id]", "job id")
    .option("--json", "print the job as JSON")
    .action(async (id: string | undefined, options: { json?: boolean }) => {
      context.setExitCode(await getJob(context.client(), id, options));
    });
  jobs
    .command("cancel")
    .description("cancel a job, a group (--group) or a batch (--batch)")
    .argument("[id]", "job id")
    .option("--group <id>", "cancel every job of this group")
    .option("--batch <id>", "cancel every job of this batch")
    .option("--json", "print the outcome as JSON")
    .action(async (id: string | undefined, options: CancelOptions) => {
      context.setExitCode(await cancelJobs(context.client(), id, options));
    });
}

async function listJobs(client: RaasClient, values: ListOptions): Promise<number> {
  const query = {
    status: values.status,
    stage: values.stage,
    kind: values.kind,
    failureKind: values.failureKind,
    failureLabel: values.failureLabel,
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

async function getJob(
  client: RaasClient,
  id: string | undefined,
  values: { json?: boolean },
): Promise<number> {
  if (!id) throw new Error("missing job id (see raas jobs get --help)");
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

async function cancelJobs(
  client: RaasClient,
  id: string | undefined,
  values: CancelOptions,
): Promise<number> {
  const target = id
    ? { jobId: id }
    : values.group
      ? { groupId: values.group }
      : values.batch
        ? { batchId: values.batch }
        : null;
  if (!target) throw new Error("give a job id, --group or --batch (see raas jobs cancel --help)");
  const result = await client.jobs.cancel.mutate(target);
  if (values.json) printJson(result);
  else console.log(`cancelled ${result.cancelled.length} job(s)`);
  return 0;
}
