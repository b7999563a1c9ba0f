import { recordStatus, type TestStatus, type TestStatusMap } from "./test-status.types";

const STATUSES = "PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS";
/** `-v` progress line: `tests/test_a.py::test_b[x] PASSED    [ 50%]` (a reason may follow the status). */
const VERBOSE_LINE = new RegExp(`^(\\S.*?::.+?) (${STATUSES})(?: \\(.*\\))?(?:\\s+\\[\\s*\\d+%\\])?\\s*$`);
/** `-rA` summary line: `FAILED tests/test_a.py::test_b - AssertionError…`. */
const SUMMARY_LINE = new RegExp(`^(${STATUSES}) (.+)$`);
// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes are control characters
const ANSI = /\u001b\[[0-9;]*m/g;

/** The node id at the start of a summary line's remainder, preferring a known test name. */
function summaryNodeId(rest: string, known: readonly string[]): string | null {
  let best: string | null = null;
  for (const name of known) {
    if (
      (rest === name || rest.startsWith(`${name} - `) || rest.startsWith(`${name} `)) &&
      name.length > (best?.length ?? 0)
    )
      best = name;
  }
  if (best !== null) return best;
  if (!rest.includes("::")) return null;
  const dash = rest.indexOf(" - ");
  const id = dash === -1 ? rest : rest.slice(0, dash);
  // XPASS lines carry the reason after a plain space; node ids have no spaces outside brackets.
  const bracket = id.indexOf("[");
  if (bracket === -1) return id.split(" ")[0] ?? null;
  const close = id.lastIndexOf("]");
  return close > bracket ? id.slice(0, close + 1) : id;
}

/**
 * Per-test outcomes from pytest output run with `-rA` and/or `-v`. Both the progress lines and
 * the short summary are read (a run killed by a timeout only has progress lines); a test reported
 * twice keeps its worse outcome. `knownTests` (the instance's test names) disambiguates summary
 * lines whose node ids contain ` - `.
 */
export function parsePytestLog(log: string, knownTests: readonly string[] = []): TestStatusMap {
  const statuses: TestStatusMap = new Map();
  for (const rawLine of log.split("\n")) {
    const line = rawLine.replace(ANSI, "").replace(/\r$/, "");
    const summary = SUMMARY_LINE.exec(line);
    if (summary) {
      const id = summaryNodeId(summary[2] as string, knownTests);
      if (id !== null) recordStatus(statuses, id, summary[1] as TestStatus);
      continue;
    }
    const verbose = VERBOSE_LINE.exec(line);
    if (verbose) recordStatus(statuses, verbose[1] as string, verbose[2] as TestStatus);
  }
  return statuses;
}
