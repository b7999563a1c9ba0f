import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parsePytestLog } from "../../src/swe/pytest-log.parser";
import { parseUnittestLog, unittestTestName } from "../../src/swe/unittest-log.parser";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), "utf8");

describe("parsePytestLog", () => {
  it("reads progress lines and the -rA summary of a failing run (pytest 9)", () => {
    const statuses = parsePytestLog(fixture("pytest-lrukit-unfixed.log"));
    expect(Object.fromEntries(statuses)).toEqual({
      "tests/test_cache.py::TestLRUCache::test_put_and_get": "PASSED",
      "tests/test_cache.py::TestLRUCache::test_missing_key_default": "PASSED",
      "tests/test_cache.py::TestLRUCache::test_evicts_least_recent_put": "PASSED",
      "tests/test_cache.py::TestLRUCache::test_overwrite_keeps_size": "PASSED",
      "tests/test_cache.py::TestLRUCache::test_get_refreshes_recency": "FAILED",
      "tests/test_cache.py::TestLRUCache::test_keys_in_recency_order": "FAILED",
      "tests/test_cache.py::test_capacity_must_be_positive": "PASSED",
    });
  });

  it("keeps parametrized ids with dashes whole", () => {
    const statuses = parsePytestLog(fixture("pytest-spans-fixed.log"));
    expect(statuses.get("tests/test_merge.py::test_touching_intervals_merge[adjacent]")).toBe("PASSED");
    expect(statuses.get("tests/test_merge.py::test_touching_intervals_merge[zero-width]")).toBe("PASSED");
    expect(statuses.size).toBe(7);
  });

  it("maps skip/xfail/xpass and lets a teardown error override a pass (Debian pytest 7)", () => {
    const statuses = parsePytestLog(fixture("pytest-misc-debian.log"));
    expect(Object.fromEntries(statuses)).toEqual({
      "tests/test_misc.py::test_ok": "PASSED",
      "tests/test_misc.py::test_teardown": "ERROR",
      "tests/test_misc.py::test_skipped": "SKIPPED",
      "tests/test_misc.py::test_xfail": "XFAIL",
      "tests/test_misc.py::test_xpass": "XPASS",
    });
  });

  it("keeps the tests finished before a timeout killed the run", () => {
    const statuses = parsePytestLog(fixture("pytest-textwrapper-timeout.log"));
    expect([...statuses.keys()]).toEqual([
      "tests/test_wrap.py::test_wraps_words",
      "tests/test_wrap.py::test_exact_width",
      "tests/test_wrap.py::test_empty_text",
      "tests/test_wrap.py::test_invalid_width",
    ]);
    expect(statuses.has("tests/test_wrap.py::test_long_word_is_split")).toBe(false);
  });

  it("reports no test of a module that failed to import", () => {
    expect(parsePytestLog(fixture("pytest-collection-error.log")).size).toBe(0);
  });

  it("uses known names for summary lines whose ids contain ' - '", () => {
    const log = [
      "FAILED tests/t.py::test_x[a - b] - AssertionError: boom",
      "PASSED tests/t.py::test_y",
      "\u001b[32mPASSED\u001b[0m tests/t.py::test_z",
    ].join("\n");
    const statuses = parsePytestLog(log, ["tests/t.py::test_x[a - b]"]);
    expect(Object.fromEntries(statuses)).toEqual({
      "tests/t.py::test_x[a - b]": "FAILED",
      "tests/t.py::test_y": "PASSED",
      "tests/t.py::test_z": "PASSED",
    });
  });
});

describe("parseUnittestLog", () => {
  it("reads Python 3.11 verbose output with docstring lines", () => {
    const statuses = parseUnittestLog(fixture("unittest-semverlite-unfixed.log"));
    expect(Object.fromEntries(statuses)).toEqual({
      "test_equal (tests.test_version.CompareTest)": "PASSED",
      "test_max_version_numeric (tests.test_version.CompareTest)": "FAILED",
      "test_numeric_order (tests.test_version.CompareTest)": "FAILED",
      "test_simple_order (tests.test_version.CompareTest)": "PASSED",
      "test_rejects_non_numeric (tests.test_version.ParseTest)": "FAILED",
      "test_v_prefix (tests.test_version.ParseTest)": "PASSED",
      "test_wrong_component_count (tests.test_version.ParseTest)": "PASSED",
    });
  });

  it("reads pre-3.11 names, printed output before the result, skips and expected failures", () => {
    const log = [
      "test_a (app.tests.ATest) ... ok",
      "test_b (app.tests.ATest) ... some output the test printed",
      "more output",
      "FAIL",
      "test_c (app.tests.ATest) ... skipped 'needs network'",
      "test_d (app.tests.ATest) ... expected failure",
      "test_e (app.tests.ATest) ... unexpected success",
      "test_f (app.tests.ATest) ... ERROR",
      "",
      "======================================================================",
      "FAIL: test_b (app.tests.ATest)",
      "----------------------------------------------------------------------",
      "Ran 6 tests in 0.001s",
    ].join("\n");
    expect(Object.fromEntries(parseUnittestLog(log))).toEqual({
      "test_a (app.tests.ATest)": "PASSED",
      "test_b (app.tests.ATest)": "FAILED",
      "test_c (app.tests.ATest)": "SKIPPED",
      "test_d (app.tests.ATest)": "XFAIL",
      "test_e (app.tests.ATest)": "XPASS",
      "test_f (app.tests.ATest)": "ERROR",
    });
  });

  it("normalizes 3.11 qualified names to SWE-bench's form", () => {
    expect(unittestTestName("test_x", "pkg.mod.Cls.test_x")).toBe("test_x (pkg.mod.Cls)");
    expect(unittestTestName("test_x", "pkg.mod.Cls")).toBe("test_x (pkg.mod.Cls)");
  });
});
