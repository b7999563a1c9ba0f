import { recordStatus, type TestStatus, type TestStatusMap } from "./test-status.types";

/** `test_x (pkg.module.Class)` or, since Python 3.11, `test_x (pkg.module.Class.test_x)`. */
const HEADER = /^(\w+) \(([\w.]+)\)/;
const RESULT_TAIL = / \.\.\. (ok|FAIL|ERROR|skipped\b.*|expected failure|unexpected success)\s*$/;
const BARE_RESULT = /^(ok|FAIL|ERROR|skipped\b.*|expected failure|unexpected success)\s*$/;
/** Failure section headers: `FAIL: test_x (pkg.module.Class.test_x)`. */
const SECTION = /^(FAIL|ERROR): (\w+) \(([\w.]+)\)\s*$/;

function toStatus(word: string): TestStatus {
  if (word === "ok") return "PASSED";
  if (word === "FAIL") return "FAILED";
  if (word === "ERROR") return "ERROR";
  if (word === "expected failure") return "XFAIL";
  if (word === "unexpected success") return "XPASS";
  return "SKIPPED";
}

/** Django/SWE-bench form `test_x (pkg.module.Class)`, whichever Python printed it. */
export function unittestTestName(method: string, qualified: string): string {
  const suffix = `.${method}`;
  const owner = qualified.endsWith(suffix) ? qualified.slice(0, -suffix.length) : qualified;
  return `${method} (${owner})`;
}

/**
 * Per-test outcomes from `python -m unittest -v` (or Django's runner at verbosity 2). Handles a
 * docstring line between the name and the result, and output the test printed before its result.
 */
export function parseUnittestLog(log: string): TestStatusMap {
  const statuses: TestStatusMap = new Map();
  let pending: string | null = null;
  for (const rawLine of log.split("\n")) {
    const line = rawLine.replace(/\r$/, "");
    const section = SECTION.exec(line);
    if (section) {
      recordStatus(
        statuses,
        unittestTestName(section[2] as string, section[3] as string),
        toStatus(section[1] as string),
      );
      pending = null;
      continue;
    }
    const header = HEADER.exec(line);
    if (header) pending = unittestTestName(header[1] as string, header[2] as string);
    if (pending === null) continue;
    const tail = RESULT_TAIL.exec(line) ?? (header ? null : BARE_RESULT.exec(line));
    if (tail) {
      recordStatus(statuses, pending, toStatus(tail[1] as string));
      pending = null;
    }
  }
  return statuses;
}
