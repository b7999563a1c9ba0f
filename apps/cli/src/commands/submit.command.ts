import { parseArgs } from "node:util";
import type { TSubmitJobRequest } from "@raas/shared";
import type { RaasClient } from "../client";
import { bar, printJson } from "../output";
import { readRequests } from "./read-requests";

const CHUNK = 500;

export const SUBMIT_HELP = `raas submit <file.json|file.jsonl|-> [--kind K] [--wait] [--json]
raas submit --demo N            submit N diagnostic 'sleep' jobs (watch the queues move)`;

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

export async function submitCommand(client: RaasClient, argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      kind: { type: "string" },
      demo: { type: "string" },
      wait: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
    },
  });
  let requests: TSubmitJobRequest[];
  if (values.demo !== undefined) {
    const count = Number(values.demo);
    if (!Number.isInteger(count) || count < 1 || count > 100_000)
      throw new Error("--demo needs a count from 1 to 100000");
    requests = demoRequests(count);
  } else {
    const [file] = positionals;
    if (!file) throw new Error(`missing input file\nusage: ${SUBMIT_HELP}`);
    requests = readRequests(file, values.kind === undefined ? {} : { kind: values.kind });
  }
  const results = [];
  for (let offset = 0; offset < requests.length; offset += CHUNK) {
    const chunk = requests.slice(offset, offset + CHUNK);
    const response = await client.jobs.submitMany.mutate({ jobs: chunk });
    results.push(...response.results);
    if (!values.json)
      process.stderr.write(
        `\rsubmitted ${bar(results.length, requests.length)} ${results.length}/${requests.length}`,
      );
  }
  if (!values.json) process.stderr.write("\n");
  const ids = results.map((r) => r.job.id);
  if (values.wait) await waitAll(client, ids, values.json);
  if (values.json) {
    printJson(
      results.map((r) => ({ id: r.job.id, jobKey: r.job.jobKey, created: r.created, status: r.job.status })),
    );
  } else {
    const reused = results.filter((r) => !r.created).length;
    console.log(`${results.length - reused} new job(s), ${reused} existing (same jobKey)`);
    for (const id of ids.slice(0, 10)) console.log(`  ${id}`);
    if (ids.length > 10) console.log(`  … and ${ids.length - 10} more (use --json for all ids)`);
  }
  return 0;
}

async function waitAll(client: RaasClient, allIds: string[], quiet: boolean): Promise<void> {
  const ids = [...new Set(allIds)];
  const finished = new Set<string>();
  while (finished.size < ids.length) {
    const pending = ids.filter((id) => !finished.has(id)).slice(0, 1_000);
    const { jobs } = await client.jobs.wait.query({ ids: pending, timeoutMs: 5_000 });
    for (const job of jobs)
      if (["completed", "failed", "cancelled"].includes(job.status)) finished.add(job.id);
    if (!quiet)
      process.stderr.write(`\rfinished  ${bar(finished.size, ids.length)} ${finished.size}/${ids.length}`);
  }
  if (!quiet) process.stderr.write("\n");
}
