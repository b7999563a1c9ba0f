// Finds tests that assert on wall-clock time (part of `npm run check` through check-deps.mjs).
// A test asserts the order and counts of events, driven by a ManualClock where the code takes a
// Clock (`@raas/engine/testing`); how fast something is belongs in a bench (`npm run bench`).
// Caught: a comparison (`toBeLessThan`, `toBeGreaterThan`, ...) whose subject reads the clock
// (`Date.now()`, `performance.now()`, `process.hrtime`), is a variable computed from such a
// reading, or names a measured duration (`durationMs`, `elapsedMs`, `wallMs`, `timings.*`).
// A primitive whose job is real time (the simulator's pacing) may compare against the real clock
// with `// wall-clock-ok: <why>` on the line above the assertion.

const CLOCK_READ = /\bDate\.now\(\)|\bperformance\.now\(\)|\bprocess\.hrtime\b/;
const DURATION_NAME = /\w*(?:elapsed|duration|wall|took|handoff)\w*(?:ms|sec|seconds)\b|\btimings\??\.\w+/i;
const COMPARISON =
  /^\s*\.(?:not\.)?(toBeLessThan|toBeLessThanOrEqual|toBeGreaterThan|toBeGreaterThanOrEqual|toBeCloseTo)\(/;
const TIMED_VARIABLE = /\b(?:const|let|var)\s+(\w+)\s*=\s*([^;\n]+)/g;

/** The argument of the `expect(` that opens at `start` (balanced parentheses), and where it ends. */
function expectArgument(text, start) {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "(") depth++;
    else if (text[i] === ")" && --depth === 0) return { argument: text.slice(start + 1, i), end: i + 1 };
  }
  return null;
}

/** Each wall-clock assertion in a test file's text: `{ line, matcher, subject }`. */
export function findWallClockAsserts(text) {
  const timed = new Set();
  for (const [, name, value] of text.matchAll(TIMED_VARIABLE)) {
    const isDifference = CLOCK_READ.test(value) && /-/.test(value);
    const isFromTimed = [...timed].some(
      (other) => new RegExp(`\\b${other}\\b`).test(value) && /[-/]/.test(value),
    );
    if (isDifference || isFromTimed) timed.add(name);
  }
  const found = [];
  for (const match of text.matchAll(/\bexpect\(/g)) {
    const opened = expectArgument(text, match.index + "expect".length);
    if (!opened) continue;
    // `expect(x, "message")`: only the subject counts.
    const subject = opened.argument.split(/,\s*["'`]/)[0];
    const rest = text.slice(opened.end, opened.end + 200);
    const comparison = COMPARISON.exec(rest);
    if (!comparison) continue;
    const isTimed =
      CLOCK_READ.test(subject) ||
      DURATION_NAME.test(subject) ||
      [...timed].some((name) => new RegExp(`\\b${name}\\b`).test(subject));
    if (!isTimed) continue;
    const line = text.slice(0, match.index).split("\n").length;
    const lineAbove = text.split("\n")[line - 2] ?? "";
    if (/wall-clock-ok:\s*\S/.test(lineAbove)) continue;
    found.push({ line, matcher: comparison[1], subject: subject.trim() });
  }
  return found;
}

/** The check's message for one finding. */
export function describeWallClockAssert(file, { line, matcher, subject }) {
  return `${file}:${line}: \`expect(${subject}).${matcher}\` asserts on wall-clock time — assert the order and counts of events instead (a ManualClock from @raas/engine/testing where the code takes a Clock), and measure speed in a bench`;
}
