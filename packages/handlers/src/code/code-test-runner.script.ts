/**
 * The unittest runner, written into the fresh EVAL sandbox as `.raas/run_unittest.py` and run in
 * its own jail with the workspace read-only. It reads a nonce from stdin before the solution is
 * imported, runs `test_hidden` in-process and then, only if it is the sole thread and the sole
 * process of its jail (nothing the solution started is still running), prints one `RAAS_ROW <nonce> <status> <ms> <b64 name>
 * <b64 detail>` line per test and `RAAS_DONE <nonce>`, with builtins captured before the solution
 * was imported. The host grades from those lines (code-verdict.ts); there is no results file.
 * The solution shares the runner's process, so code written to forge (reading the nonce from
 * memory, patching unittest) can still lie about its own tests; stdio tests are graded entirely
 * outside the solution's process.
 */
export const UNITTEST_RUNNER_PY = String.raw`
import binascii, os, sys, threading, time, unittest

write, b64, listdir, getpid, read = os.write, binascii.b2a_base64, os.listdir, os.getpid, os.read
active_count = threading.active_count

def others_alive():
    if active_count() > 1 or len(listdir("/proc/self/task")) > 1:
        return True
    me = str(getpid())
    return any(name.isdigit() and name not in ("1", me) for name in listdir("/proc"))

class Collect(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.rows = []
        self.started = 0.0
    def startTest(self, test):
        super().startTest(test)
        self.started = time.monotonic()
    def _row(self, test, status, detail=""):
        self.rows.append((test.id(), status, round((time.monotonic() - self.started) * 1000, 1), detail[-400:]))
    def addSuccess(self, test):
        self._row(test, "passed")
    def addFailure(self, test, err):
        self._row(test, "failed", self._exc_info_to_string(err, test))
    def addError(self, test, err):
        self._row(test, "error", self._exc_info_to_string(err, test))
    def addSkip(self, test, reason):
        self._row(test, "failed", "skipped: " + reason)
    def addExpectedFailure(self, test, err):
        self._row(test, "passed")
    def addUnexpectedSuccess(self, test):
        self._row(test, "failed", "unexpected success")
    def addSubTest(self, test, subtest, err):
        if err is not None:
            self._row(test, "error" if not issubclass(err[0], test.failureException) else "failed", self._exc_info_to_string(err, test))

# Read before the solution is imported: left in the pipe, a plain os.read(0) at import would take it.
nonce = read(0, 64).strip()
sys.stdin = open(os.devnull)
os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
sys.path.insert(0, os.getcwd())
result = Collect()
rows = result.rows
try:
    unittest.defaultTestLoader.loadTestsFromName("test_hidden").run(result)
except BaseException as error:
    rows.append(("import", "error", 0, repr(error)[-400:]))
if others_alive():
    write(2, b"the solution left threads or processes running; no report\n")
    os._exit(3)
for name, status, ms, detail in rows:
    line = b"RAAS_ROW " + nonce + (" %s %s " % (status, ms)).encode() + b64(str(name).encode(), newline=False) + b" " + b64(str(detail).encode(), newline=False) + b"\n"
    write(1, line)
write(1, b"RAAS_DONE " + nonce + b"\n")
os._exit(0)
`;
