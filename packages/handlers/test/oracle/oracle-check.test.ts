// The oracle check of the shipped environments on real bubblewrap sandboxes: every task's
// reference solution earns full reward and a no-op none, through the handlers' own stages; a
// broken copy (a solution that does nothing, a verify.py that crashes) fails its check.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BubblewrapRuntime, findExecutable } from "@raas/sandbox";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadEnvironment } from "../../src/oracle/environment-source";
import { type OracleCheckReport, runOracleCheck } from "../../src/oracle/oracle-check";

const ENVIRONMENTS = fileURLToPath(new URL("../../../../environments/", import.meta.url));
const SEARCH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

describe("runOracleCheck", () => {
  let runtime: BubblewrapRuntime;
  let baseDir: string;
  let scratch: string;

  beforeAll(() => {
    const bwrapPath = findExecutable("bwrap", SEARCH_PATH);
    if (!bwrapPath) throw new Error("oracle tests need bubblewrap: apt-get install -y bubblewrap");
    baseDir = mkdtempSync(join(tmpdir(), "raas-oracle-test-"));
    scratch = mkdtempSync(join(tmpdir(), "raas-oracle-envs-"));
    runtime = new BubblewrapRuntime({ bwrapPath, baseDir, warn: () => {} });
  });

  afterAll(async () => {
    await runtime?.closeAll();
    rmSync(baseDir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  const check = async (dir: string): Promise<OracleCheckReport> =>
    runOracleCheck({ environment: await loadEnvironment(dir), sandboxRuntime: runtime, concurrency: 4 });

  it("passes every Harbor example and fails a copy whose solution does nothing", async () => {
    const broken = join(scratch, "harbor");
    cpSync(join(ENVIRONMENTS, "harbor-examples"), broken, { recursive: true });
    writeFileSync(join(broken, "recover-csv", "solution", "solve.sh"), "#!/bin/bash\ntrue\n");
    const [shipped, copy] = await Promise.all([check(join(ENVIRONMENTS, "harbor-examples")), check(broken)]);
    expect(shipped.kind).toBe("harbor");
    expect(shipped.rows.map((row) => [row.task, row.oracleReward, row.noopReward, row.verdict])).toEqual([
      ["raas-examples/fix-python-stats", 1, 0, "pass"],
      ["raas-examples/fix-shell-script", 1, 0, "pass"],
      ["raas-examples/log-report", 1, 0, "pass"],
      ["raas-examples/recover-csv", 1, 0, "pass"],
      ["raas-examples/serve-config", 1, 0, "pass"],
    ]);
    expect([shipped.passed, shipped.failed, shipped.skipped]).toEqual([5, 0, 0]);
    expect(copy.rows.filter((row) => row.verdict !== "pass")).toEqual([
      expect.objectContaining({
        task: "raas-examples/recover-csv",
        oracleReward: 0,
        verdict: "fail",
        reasons: ["oracle: reward 0, expected 1"],
      }),
    ]);
  }, 900_000);

  it("passes math-verify and fails a copy whose verify.py crashes on an empty answer", async () => {
    const broken = join(scratch, "math-verify");
    cpSync(join(ENVIRONMENTS, "math-verify"), broken, { recursive: true });
    writeFileSync(
      join(broken, "verify.py"),
      "def compute_score(solution_str, ground_truth):\n    assert solution_str, 'empty answer'\n    return float(solution_str.strip() == str(ground_truth))\n",
    );
    const [shipped, copy] = await Promise.all([check(join(ENVIRONMENTS, "math-verify")), check(broken)]);
    expect(shipped.kind).toBe("reward-fn");
    expect(shipped.rows).toHaveLength(20);
    expect(shipped.rows.filter((row) => row.verdict !== "pass")).toEqual([]);
    expect(shipped.rows.every((row) => row.oracleReward === 1 && row.noopReward === 0)).toBe(true);
    expect(copy.failed).toBe(20);
    expect(copy.rows[0]).toMatchObject({ oracleReward: 1, noopReward: null, verdict: "fail" });
    expect(copy.rows[0]?.reasons[0]).toMatch(/^no-op: failed \(eval: .*empty answer/);
  }, 900_000);
});
