import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { apiClient } from "./api-client";

const SWE_DATA = join(dirname(fileURLToPath(import.meta.url)), "../../packages/handlers/data/swe");

/** Where the embedded e2e server finds the shipped SWE fixtures' repositories (registers `swe` and `harness`). */
export const SWE_REPOS_DIR = join(SWE_DATA, "bundles");

/**
 * The test harness that rewrites its history (standard-library Python, run in the sandbox with the
 * gateway's `OPENAI_BASE_URL`): a first call, a second whose history rewrote the user's question (a
 * break: a new chain), and a third that continues the second exactly — so its certificate has two
 * chains, one call merged and one break.
 */
const REWRITING_HARNESS = readFileSync(join(SWE_DATA, "../harness/rewriting_harness.py"), "utf8");

/**
 * Runs one `harness` job through the API — INIT sets up the first shipped SWE fixture in a real
 * sandbox, RUN runs the rewriting harness above against the deployment's simulator through the
 * inference gateway, EVAL grades its (empty) patch — and waits until it is terminal; returns its id.
 */
export async function runRewritingHarnessJob(tag: string): Promise<string> {
  const api = apiClient("trainer");
  const [line] = readFileSync(join(SWE_DATA, "instances.jsonl"), "utf8")
    .split("\n")
    .filter((candidate) => candidate.trim() !== "");
  const instance = JSON.parse(line ?? "{}") as Record<string, unknown>;
  const { results } = await api.jobs.submitMany.mutate({
    jobs: [
      {
        kind: "harness",
        jobKey: `${tag}-harness`,
        payload: {
          task: { instance },
          command: ["python3", "-c", REWRITING_HARNESS, "e2e-gateway"],
          timeoutMs: 240_000,
        },
      },
    ],
  });
  const ids = results.map((result) => result.job.id);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if ((await api.jobs.wait.query({ ids, timeoutMs: 60_000 })).done) return ids[0] as string;
  }
  throw new Error(`the harness job did not finish in 300 s: ${ids.join(", ")}`);
}
