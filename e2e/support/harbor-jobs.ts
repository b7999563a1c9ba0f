import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { harborJobRequest, loadHarborTask } from "../../packages/handlers/src/harbor/harbor-task-loader";
import { apiClient } from "./api-client";

const LOG_REPORT = join(
  dirname(fileURLToPath(import.meta.url)),
  "../../environments/harbor-examples/log-report",
);

/**
 * The Harbor task id whose simulator script writes a half-right report.json, then submits: the
 * log-report verifier scores it 0 and gives its one turn a per-step reward of 0.5.
 */
export const HARBOR_PARTIAL_TASK_ID = "e2e-log-report-partial";

/** The simulator's script of `HARBOR_PARTIAL_TASK_ID`. */
export const HARBOR_PARTIAL_SCRIPT = {
  steps: [
    {
      thinking: "Write the report.",
      toolCalls: [
        {
          name: "bash",
          arguments: { command: `echo '{"requests": 7, "bytes": 4800}' > /workspace/report.json` },
        },
      ],
    },
    { thinking: "Done.", toolCalls: [{ name: "submit", arguments: {} }] },
  ],
};

/** Runs the shipped log-report Harbor task once with the partial script, to its end; returns the job id. */
export async function runHarborPartialJob(tag: string): Promise<string> {
  const request = harborJobRequest(await loadHarborTask(LOG_REPORT), { taskId: HARBOR_PARTIAL_TASK_ID });
  const api = apiClient("trainer");
  const { job } = await api.jobs.submit.mutate({ ...request, jobKey: `${tag}-harbor-partial` });
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if ((await api.jobs.wait.query({ ids: [job.id], timeoutMs: 60_000 })).done) return job.id;
  }
  throw new Error(`harbor job ${job.id} did not finish in 180 s`);
}
