/**
 * The hidden-test runner, written into the fresh EVAL sandbox as `.raas/run_tests.py` and run with
 * Debian's `python3`. It reads `.raas/spec.json`, runs the cases and writes `.raas/results.json`:
 * `{ pythonVersion, cases: [{ name, status, durationMs, detail }] }` with status `passed`,
 * `wrong_answer`, `runtime_error`, `timeout` (stdio) or `passed`, `failed`, `error`, `timeout`
 * (unittest). Each stdio case runs in its own process with its own time limit; a unittest suite
 * runs in one child process with one limit.
 */
export const CODE_TEST_RUNNER_PY = String.raw`
import json, os, subprocess, sys, time, unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

def normalize(text):
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines)

def run_stdio(spec):
    results = []
    solution = os.path.join(ROOT, spec["solutionPath"])
    for index, case in enumerate(spec["cases"]):
        started = time.monotonic()
        status, detail = "passed", ""
        try:
            proc = subprocess.run([sys.executable, solution], input=case["input"], capture_output=True,
                                  text=True, timeout=spec["timeLimitMs"] / 1000, cwd=ROOT)
            if proc.returncode != 0:
                status, detail = "runtime_error", proc.stderr[-400:]
            elif normalize(proc.stdout) != normalize(case["output"]):
                status, detail = "wrong_answer", "got " + repr(proc.stdout[:200])
        except subprocess.TimeoutExpired:
            status, detail = "timeout", "exceeded %d ms" % spec["timeLimitMs"]
        results.append({"name": "case-%d" % index, "status": status,
                        "durationMs": round((time.monotonic() - started) * 1000, 1), "detail": detail})
    return results

class Collect(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.rows = []
        self.started = 0.0
    def startTest(self, test):
        super().startTest(test)
        self.started = time.monotonic()
    def _row(self, test, status, detail=""):
        self.rows.append({"name": test.id(), "status": status,
                          "durationMs": round((time.monotonic() - self.started) * 1000, 1), "detail": detail[-400:]})
    def addSuccess(self, test):
        self._row(test, "passed")
    def addFailure(self, test, err):
        self._row(test, "failed", self._exc_info_to_string(err, test))
    def addError(self, test, err):
        self._row(test, "error", self._exc_info_to_string(err, test))
    def addSkip(self, test, reason):
        self._row(test, "failed", "skipped: " + reason)

def unittest_child():
    sys.path.insert(0, ROOT)
    result = Collect()
    try:
        suite = unittest.defaultTestLoader.loadTestsFromName("test_hidden")
        suite.run(result)
    except Exception as error:
        result.rows.append({"name": "import", "status": "error", "durationMs": 0, "detail": repr(error)[-400:]})
    print(json.dumps(result.rows))

def run_unittest(spec):
    try:
        proc = subprocess.run([sys.executable, os.path.abspath(__file__), "--child"], capture_output=True,
                              text=True, timeout=spec["timeLimitMs"] / 1000, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return [{"name": "suite", "status": "timeout", "durationMs": spec["timeLimitMs"],
                 "detail": "the suite exceeded %d ms" % spec["timeLimitMs"]}]
    lines = proc.stdout.strip().splitlines()
    try:
        rows = json.loads(lines[-1])
    except Exception:
        rows = [{"name": "suite", "status": "error", "durationMs": 0, "detail": proc.stderr[-400:]}]
    return rows or [{"name": "suite", "status": "error", "durationMs": 0, "detail": "no tests ran"}]

if __name__ == "__main__":
    if "--child" in sys.argv:
        unittest_child()
        sys.exit(0)
    with open(os.path.join(HERE, "spec.json")) as handle:
        spec = json.load(handle)
    cases = run_stdio(spec) if spec["kind"] == "stdio" else run_unittest(spec)
    with open(os.path.join(HERE, "results.json"), "w") as handle:
        json.dump({"pythonVersion": sys.version.split()[0], "cases": cases}, handle)
    print("%d/%d passed" % (sum(c["status"] == "passed" for c in cases), len(cases)))
`;
