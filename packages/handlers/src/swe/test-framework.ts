import { assertNever } from "@raas/shared";
import { parsePytestLog } from "./pytest-log.parser";
import type { TestStatusMap } from "./test-status.types";
import { parseUnittestLog } from "./unittest-log.parser";

export type TestFramework = "pytest" | "unittest";

/** `test_x (pkg.module.Class)`: a unittest test name as SWE-bench lists it. */
export const UNITTEST_NAME = /^(\w+) \(([\w.]+)\)$/;

/** Guesses the framework from the test names: `a.py::b` is pytest, `test_x (mod.Class)` is unittest. */
export function detectTestFramework(testNames: readonly string[]): TestFramework | null {
  if (testNames.length === 0) return null;
  if (testNames.every((name) => UNITTEST_NAME.test(name))) return "unittest";
  if (testNames.every((name) => name.includes("::") || name.endsWith(".py"))) return "pytest";
  return null;
}

/** The test files (pytest) or modules (unittest) that contain the named tests, sorted, unique. */
export function testTargets(framework: TestFramework, testNames: readonly string[]): string[] {
  const targets = new Set<string>();
  for (const name of testNames) {
    switch (framework) {
      case "pytest":
        targets.add(name.split("::")[0] as string);
        break;
      case "unittest": {
        const owner = UNITTEST_NAME.exec(name)?.[2];
        if (!owner) throw new Error(`not a unittest test name: ${name}`);
        // `pkg.module.Class` → run the module, like SWE-bench runs whole test files.
        const parts = owner.split(".");
        targets.add(parts.length > 1 ? parts.slice(0, -1).join(".") : owner);
        break;
      }
      default:
        return assertNever(framework, "test framework");
    }
  }
  return [...targets].sort();
}

/** Default command (before the targets) of each framework; seeds and hash order come from the env. */
export function defaultTestCommand(framework: TestFramework): string {
  switch (framework) {
    case "pytest":
      return "python3 -m pytest -rA -v --color=no -p no:cacheprovider";
    case "unittest":
      return "python3 -m unittest -v";
    default:
      return assertNever(framework, "test framework");
  }
}

/** Parses a test log with the framework's parser. */
export function parseTestLog(
  framework: TestFramework,
  log: string,
  knownTests: readonly string[],
): TestStatusMap {
  switch (framework) {
    case "pytest":
      return parsePytestLog(log, knownTests);
    case "unittest":
      return parseUnittestLog(log);
    default:
      return assertNever(framework, "test framework");
  }
}
