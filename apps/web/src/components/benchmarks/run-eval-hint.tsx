const EVAL_SWE_COMMAND =
  "npm run raas -- eval swe --dataset packages/handlers/data/swe/instances.jsonl \\\n    --backend <url> --model <name>";
const EVAL_ENV_COMMAND = "npm run raas -- eval env <environment> --backend <url>";

/**
 * What to run to store a benchmark run, for the empty state: an environment's tasks, and (when
 * SWE-bench is what the page is showing) a SWE-bench evaluation.
 */
export function RunEvalHint({ isSwe }: { isSwe: boolean }) {
  return (
    <>
      <p>
        Roll out a registered environment&apos;s tasks (see Environments) through the service; the run is
        stored with each task&apos;s reward and appears here (this page refreshes every 10 s):
      </p>
      <pre>{EVAL_ENV_COMMAND}</pre>
      {isSwe ? (
        <>
          <p>Or run a SWE-bench evaluation:</p>
          <pre>{EVAL_SWE_COMMAND}</pre>
          <p>
            Or grade existing patches with <code>--predictions FILE.jsonl</code>, or store results from a
            trainer with <code>benchmarks.createRun</code>, <code>recordResults</code> and{" "}
            <code>finishRun</code>.
          </p>
        </>
      ) : null}
    </>
  );
}
