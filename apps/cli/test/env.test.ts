// `raas env …`: the oracle check of the shipped environments on this machine's real sandboxes
// (every task passes, exit 0), a deliberately broken copy (exit 1, the failing task named), and
// the registry through a real server (child process, memory store): register, list with task
// counts, verify by name storing the check, show, and an unknown name in one line.
import type { ChildProcess } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, runCli } from "./support/run-cli";
import { REPO_ROOT, startServer } from "./support/start-server";

const ADMIN = "cli-env-admin-token";
const HARBOR = join(REPO_ROOT, "environments/harbor-examples");
const MATH = join(REPO_ROOT, "environments/math-verify");
const MCP_DB = join(REPO_ROOT, "environments/mcp-db");
let server: ChildProcess;
let url: string;
let dir: string;

function raas(args: string[]): Promise<CliRun> {
  return runCli(args, {
    cwd: dir,
    env: { RAAS_URL: url, RAAS_TOKEN: ADMIN, RAAS_DATA_DIR: join(dir, ".raas") },
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "raas-cli-env-"));
  ({ server, url } = await startServer(dir, { RAAS_STORE: "memory", RAAS_ADMIN_TOKEN: ADMIN }));
}, 180_000);

afterAll(() => {
  server?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

describe("raas env verify", () => {
  it("passes every task of math-verify and prints the oracle table, exit 0", async () => {
    const run = await raas(["env", "verify", MATH]);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^task\s+oracle\s+no-op\s+verdict\s+seconds$/);
    expect(
      lines.slice(1, 21).every((line) => /^math-verify-\d\d\s+1\s+0\s+pass\s+\d+\.\d$/.test(line.trimEnd())),
    ).toBe(true);
    expect(lines.at(-1)).toMatch(/^math-verify \(reward-fn\): 20 passed, 0 failed, 0 skipped in \d+\.\d s$/);
    expect(run.stderr).toContain("verifying [");
  }, 600_000);

  it("starts mcp-db's MCP server in each task's sandbox and passes; a copy whose server dies fails", async () => {
    const shipped = await raas(["env", "verify", MCP_DB, "--json"]);
    expect(shipped.code, shipped.stderr).toBe(0);
    expect(JSON.parse(shipped.stdout)).toMatchObject({
      environment: "mcp-db",
      kind: "reward-fn",
      passed: 3,
      failed: 0,
    });
    // A server that exits before the MCP handshake is the environment's mistake: every task fails
    // its check (not retried as infrastructure), naming what the server said.
    const broken = join(dir, "broken-mcp-db");
    cpSync(MCP_DB, broken, { recursive: true });
    writeFileSync(join(broken, "mcp_db_server.py"), "import sys\nsys.exit('no database here')\n");
    const run = await raas(["env", "verify", broken, "--json"]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ environment: "mcp-db", passed: 0, failed: 3 });
    for (const row of report.rows) expect(row.reasons.join(" ")).toContain("no database here");
  }, 600_000);

  it("fails a broken copy with exit 1, naming the task and why", async () => {
    const broken = join(dir, "broken-harbor");
    cpSync(join(HARBOR, "recover-csv"), join(broken, "recover-csv"), { recursive: true });
    writeFileSync(join(broken, "recover-csv", "solution", "solve.sh"), "#!/bin/bash\nexit 0\n");
    const run = await raas(["env", "verify", broken, "--json"]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ environment: "broken-harbor", kind: "harbor", passed: 0, failed: 1 });
    expect(report.rows).toEqual([
      expect.objectContaining({
        task: "raas-examples/recover-csv",
        oracleReward: 0,
        noopReward: 0,
        verdict: "fail",
        reasons: ["oracle: reward 0, expected 1"],
      }),
    ]);
  }, 600_000);
});

describe("raas env register | list | verify <name> | show", () => {
  it("registers the Harbor examples, checks them by name and shows the stored check", async () => {
    const registered = await raas(["env", "register", HARBOR]);
    expect(registered.code, registered.stderr).toBe(0);
    expect(registered.stdout).toBe(`registered harbor-examples: harbor, 5 tasks, ${HARBOR}\n`);
    const before = await raas(["env", "list"]);
    expect(before.stdout).toMatch(/^name\s+kind\s+tasks\s+oracle\s+checked\s+path\s*\n/);
    expect(before.stdout).toMatch(/harbor-examples\s+harbor\s+5\s+-\s+-\s+\S+/);

    const verified = await raas(["env", "verify", "harbor-examples"]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toContain("harbor-examples (harbor): 5 passed, 0 failed, 0 skipped");
    expect(verified.stderr).toContain("stored with environment harbor-examples");

    const after = await raas(["env", "list"]);
    expect(after.stdout).toMatch(/harbor-examples\s+harbor\s+5\s+5\/5 pass\s+\S+ ago/);
    const shown = await raas(["env", "show", "harbor-examples", "--json"]);
    const { environment } = JSON.parse(shown.stdout);
    expect(
      environment.oracle.rows.map((r: { task: string; verdict: string }) => [r.task, r.verdict]),
    ).toEqual([
      ["raas-examples/fix-python-stats", "pass"],
      ["raas-examples/fix-shell-script", "pass"],
      ["raas-examples/log-report", "pass"],
      ["raas-examples/recover-csv", "pass"],
      ["raas-examples/serve-config", "pass"],
    ]);
  }, 600_000);

  it("names an unknown environment and a bad directory in one line, exit 1", async () => {
    const unknown = await raas(["env", "show", "no-such-env"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: no environment named "no-such-env"/);
    const notThere = await raas(["env", "verify", "no-such-env"]);
    expect(notThere.code).toBe(1);
    expect(notThere.stderr).toMatch(/^error: no environment named "no-such-env"/);
    const bad = await raas(["env", "register", join(dir, "missing-dir")]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: .*missing-dir: not a directory on the server/);
  }, 120_000);
});
