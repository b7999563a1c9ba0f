const EVAL_COMMAND =
  "npm run raas -- eval swe --dataset packages/handlers/data/swe/instances.jsonl \\\n    --backend <url> --model <name>";

/** What to run to store a benchmark run, for the empty and not-found states. */
export function RunEvalHint() {
  return (
    <>
      <p>
        Run a SWE-bench evaluation through the service; it is stored as a run and appears here (this page
        refreshes every 10 s):
      </p>
      <pre>{EVAL_COMMAND}</pre>
      <p>
        Or grade existing patches with <code>--predictions FILE.jsonl</code>, or store results from a trainer
        with <code>benchmarks.createRun</code>, <code>recordResults</code> and <code>finishRun</code>.
      </p>
    </>
  );
}
