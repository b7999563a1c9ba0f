import type { TSubmitJobRequest } from "@raas/shared";
import type { Command } from "commander";
import type { CliContext } from "../cli-context";
import type { RaasClient } from "../client";
import { bar } from "../output";
import { withJobKeys } from "./job-keys";
import { readRequests } from "./read-requests";
import { type FinishedJob, formatSummary, INFRASTRUCTURE_EXIT_CODE, summarizeJobs } from "./submit-summary";

const CHUNK = 500;
const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** `raas submit`'s options, as commander parses them. */
interface SubmitOptions {
  kind?: string;
  demo?: string;
  wait?: boolean;
  json?: boolean;
  keySalt?: string;
}

export function declareSubmit(program: Command, context: CliContext): void {
  program
    .command("submit")
    .summary("submit jobs from a JSON/JSONL file, or N diagnostic jobs")
    .description(
      "Submits job requests from a JSON file (one object or an array) or JSONL (one object per line; - reads stdin). " +
        "Each request without a jobKey gets one from the file's content and its line, so submitting the file" +
        " again never runs a job twice.",
    )
    .argument("[file]", "file.json, file.jsonl or - (standard input)")
    .option("--kind <kind>", "handler kind for requests that name none")
    .option("--demo <count>", "submit N diagnostic 'sleep' jobs instead of a file (watch the queues move)")
    .option(
      "--wait",
      `wait for every job and end with a summary; exit status ${INFRASTRUCTURE_EXIT_CODE} when a job failed for infrastructure reasons (timeout, sandbox, inference, eval)`,
    )
    .option(
      "--json",
      "print JSON lines: one per job as the server acknowledges it, then (with --wait) one per finished job and a summary",
    )
    .option("--key-salt <salt>", "submit the same file again as new jobs")
    .action(async (file: string | undefined, options: SubmitOptions) => {
      context.setExitCode(await submitCommand(context.client(), file, options));
    });
}

function demoRequests(count: number): TSubmitJobRequest[] {
  return Array.from({ length: count }, (_, i) => ({
    kind: "sleep",
    payload: {
      initMs: 1_000,
      runMs: 6_000,
      evalMs: 3_000,
      jitter: 0.5,
      successRate: 0.6,
      fail: { run: { rate: 0.1, kind: "agent" }, eval: { rate: 0.05, kind: "eval" } },
    },
    metadata: { demo: true, index: i },
  }));
}

function printLine(value: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

async function submitCommand(
  client: RaasClient,
  file: string | undefined,
  values: SubmitOptions,
): Promise<number> {
  let requests: TSubmitJobRequest[];
  if (values.demo !== undefined) {
    const count = Number(values.demo);
    if (!Number.isInteger(count) || count < 1 || count > 100_000)
      throw new Error("--demo needs a count from 1 to 100000");
    requests = demoRequests(count);
  } else {
    if (!file) throw new Error("missing input file (see raas submit --help)");
    const read = readRequests(file, values.kind === undefined ? {} : { kind: values.kind });
    requests = withJobKeys(read.requests, read.positions, read.text, values.keySalt);
  }
  const results = [];
  for (let offset = 0; offset < requests.length; offset += CHUNK) {
    const chunk = requests.slice(offset, offset + CHUNK);
    const response = await client.jobs.submitMany.mutate({ jobs: chunk });
    for (const [index, r] of response.results.entries()) {
      if (values.json)
        printLine({
          type: "submitted",
          index: offset + index,
          id: r.job.id,
          jobKey: r.job.jobKey,
          created: r.created,
          status: r.job.status,
        });
    }
    results.push(...response.results);
    if (!values.json)
      process.stderr.write(
        `\rsubmitted ${bar(results.length, requests.length)} ${results.length}/${requests.length}`,
      );
  }
  const ids = results.map((r) => r.job.id);
  if (!values.json) {
    process.stderr.write("\n");
    const reused = results.filter((r) => !r.created).length;
    console.log(`${results.length - reused} new job(s), ${reused} existing (same jobKey)`);
    for (const id of ids.slice(0, 10)) console.log(`  ${id}`);
    if (ids.length > 10) console.log(`  … and ${ids.length - 10} more (use --json for all ids)`);
  }
  if (!values.wait) return 0;
  const finished = await waitAll(client, ids, values.json === true);
  const summary = summarizeJobs(finished);
  if (values.json) printLine({ type: "summary", ...summary });
  else console.log(formatSummary(summary));
  return summary.infrastructureFailures > 0 ? INFRASTRUCTURE_EXIT_CODE : 0;
}

/** Waits until every job is terminal; returns each job once, as it ended. */
async function waitAll(client: RaasClient, allIds: string[], json: boolean): Promise<FinishedJob[]> {
  const ids = [...new Set(allIds)];
  const finished = new Map<string, FinishedJob>();
  while (finished.size < ids.length) {
    const pending = ids.filter((id) => !finished.has(id)).slice(0, 1_000);
    const { jobs } = await client.jobs.wait.query({ ids: pending, timeoutMs: 5_000 });
    for (const job of jobs) {
      if (!TERMINAL.has(job.status) || finished.has(job.id)) continue;
      finished.set(job.id, job);
      if (json)
        printLine({
          type: "finished",
          id: job.id,
          status: job.status,
          failureKind: job.failure?.kind ?? null,
          reward: job.reward,
        });
    }
    if (!json)
      process.stderr.write(`\rfinished  ${bar(finished.size, ids.length)} ${finished.size}/${ids.length}`);
  }
  if (!json) process.stderr.write("\n");
  return ids.map((id) => finished.get(id)!);
}
