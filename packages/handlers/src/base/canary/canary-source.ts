import type { CanaryExpectation } from "./canary.types";
import { canaryClassName, canaryHelperName, canaryInt, canaryTestName } from "./canary-names";

/** Python source to plant in one host, in chunks each inserted at its own place in the module. */
export interface CanarySource {
  /** Self-contained top-level code (imports included), each planted at its own random position. */
  chunks: string[];
  /** The canaries, by their name inside the module. */
  tests: Array<{ local: string; expect: CanaryExpectation }>;
}

/** The expectations of one host's canaries: one of each outcome, plus up to two more that pass or fail. */
function expectations(): CanaryExpectation[] {
  const list: CanaryExpectation[] = ["passed", "failed", "error"];
  for (let extra = canaryInt(0, 3); extra > 0; extra -= 1)
    list.push(canaryInt(0, 2) === 0 ? "passed" : "failed");
  return list;
}

/** A name maker that never repeats a name within one host. */
function freshNames(): (make: () => string) => string {
  const used = new Set<string>();
  return (make) => {
    let name = make();
    while (used.has(name)) name = make();
    used.add(name);
    return name;
  };
}

/** `[left, right]` of a comparison that holds (`isTrue`) or not, in one of a few ordinary shapes. */
function comparison(isTrue: boolean): [string, string] {
  const a = canaryInt(2, 90);
  const b = canaryInt(2, 90);
  const off = isTrue ? 0 : canaryInt(1, 9);
  switch (canaryInt(0, 4)) {
    case 0:
      return [`${a} + ${b}`, String(a + b + off)];
    case 1:
      return [`${a} * ${b}`, String(a * b - off)];
    case 2:
      return [`len("${"ab".repeat((a % 7) + 1)}")`, String(2 * ((a % 7) + 1) + off)];
    default: {
      const items = [a, b, a + b];
      const sorted = [...items].sort((x, y) => x - y);
      if (!isTrue) sorted.reverse();
      if (!isTrue && sorted[0] === sorted[2]) sorted[0] = (sorted[0] as number) + 1;
      return [`sorted([${items.join(", ")}])`, `[${sorted.join(", ")}]`];
    }
  }
}

/** An expression that raises an exception other than AssertionError. */
function raisingStatement(): string {
  switch (canaryInt(0, 3)) {
    case 0:
      return `int("${canaryHelperName()}")`;
    case 1:
      return `{}["${canaryHelperName()}"]`;
    default:
      return `[${canaryInt(1, 9)}][${canaryInt(3, 9)}]`;
  }
}

/**
 * Canaries as pytest test functions, each its own chunk. An `error` canary requests a fixture
 * that raises (pytest's ERROR outcome: a failure in setup, not in the test body).
 */
export function pytestCanarySource(): CanarySource {
  const chunks: string[] = [];
  const tests: CanarySource["tests"] = [];
  const fresh = freshNames();
  for (const expect of expectations()) {
    const name = fresh(canaryTestName);
    tests.push({ local: name, expect });
    if (expect === "error") {
      const fixture = fresh(canaryHelperName);
      chunks.push(
        `import pytest\n\n\n@pytest.fixture\ndef ${fixture}():\n    ${raisingStatement()}\n    return ${canaryInt(1, 99)}\n\n\ndef ${name}(${fixture}):\n    assert ${fixture} is not None\n`,
      );
      continue;
    }
    const [left, right] = comparison(expect === "passed");
    chunks.push(`def ${name}():\n    assert ${left} == ${right}\n`);
  }
  return { chunks, tests };
}

/** Canaries as one `unittest.TestCase` class (one chunk); locals are `Class.method`. */
export function unittestCanarySource(): CanarySource {
  const className = canaryClassName();
  const methods: string[] = [];
  const tests: CanarySource["tests"] = [];
  const fresh = freshNames();
  for (const expect of expectations()) {
    const name = fresh(canaryTestName);
    tests.push({ local: `${className}.${name}`, expect });
    if (expect === "error") {
      methods.push(`    def ${name}(self):\n        ${raisingStatement()}\n`);
      continue;
    }
    const [left, right] = comparison(expect === "passed");
    methods.push(`    def ${name}(self):\n        self.assertEqual(${left}, ${right})\n`);
  }
  const chunk = `import unittest\n\n\nclass ${className}(unittest.TestCase):\n${methods.join("\n")}`;
  return { chunks: [chunk], tests };
}
