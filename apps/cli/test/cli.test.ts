import { type ChildProcess, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, startServer, TSX } from "./support/start-server";

const root = REPO_ROOT;
const tsx = TSX;
const ADMIN = "cli-test-admin-token";
let server: ChildProcess;
let url: string;
let dir: string;

function raas(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [tsx, join(root, "apps/cli/src/main.ts"), ...args], {
    cwd: dir,
    env: { ...process.env, RAAS_URL: url, RAAS_TOKEN: ADMIN, RAAS_DATA_DIR: join(dir, ".raas"), ...env },
    encoding: "utf8",
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "raas-cli-"));
  ({ server, url } = await startServer(dir, { RAAS_STORE: "memory", RAAS_ADMIN_TOKEN: ADMIN }));
});

afterAll(() => {
  server?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

describe("raas CLI against a running server", () => {
  it("submits a JSONL file, waits, and reports the jobs as JSON", () => {
    const file = join(dir, "jobs.jsonl");
    const line = (key: string) =>
      JSON.stringify({ payload: { initMs: 1, runMs: 1, evalMs: 1, reward: 1 }, jobKey: key });
    writeFileSync(file, `${line("a")}\n${line("b")}\n\n${line("a")}\n`);
    const submitted = raas(["submit", file, "--kind", "sleep", "--wait", "--json"]);
    expect(submitted.stderr).toBe("");
    expect(submitted.code).toBe(0);
    const lines = submitted.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; id: string; created: boolean; jobKey: string });
    const rows = lines.filter((line) => line.type === "submitted");
    expect(rows).toHaveLength(3);
    expect(lines.at(-1)).toMatchObject({ type: "summary", jobs: 2, completed: 2, meanReward: 1 });
    expect(rows[0]?.id).toBe(rows[2]?.id);
    const listed = raas(["jobs", "list", "--status", "completed", "--json"]);
    const page = JSON.parse(listed.stdout) as { items: Array<{ id: string; reward: number }> };
    expect(page.items.map((j) => j.id).sort()).toEqual([rows[0]?.id, rows[1]?.id].sort());
    expect(page.items.every((j) => j.reward === 1)).toBe(true);
    const status = raas(["status", "--json"]);
    expect(JSON.parse(status.stdout)).toMatchObject({ completed: 2 });
  });

  it("cancels a job and shows it", () => {
    const file = join(dir, "slow.json");
    writeFileSync(file, JSON.stringify({ kind: "sleep", payload: { initMs: 60_000 } }));
    const row = JSON.parse(raas(["submit", file, "--json"]).stdout) as { id: string };
    expect(raas(["jobs", "cancel", row!.id]).stdout).toContain("cancelled 1 job(s)");
    const job = JSON.parse(raas(["jobs", "get", row!.id, "--json"]).stdout) as {
      status: string;
      failure: { kind: string };
    };
    expect(job).toMatchObject({ status: "cancelled", failure: { kind: "cancelled" } });
  });

  it("explains mistakes in one readable line and exits non-zero", () => {
    const unknown = raas(["submit", "-", "--kind", "nope"], {});
    expect(unknown.code).not.toBe(0);
    const file = join(dir, "bad.json");
    writeFileSync(file, JSON.stringify({ kind: "nope" }));
    const bad = raas(["submit", file]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^error: .*unknown handler kind "nope"/);
    expect(bad.stderr).not.toMatch(/at .*\.ts:\d+/);
    const missing = raas(["jobs", "get", "job_nope"]);
    expect(missing.stderr).toMatch(/^error: no job with id "job_nope"/);
    const unauthorized = raas(["submit", file], { RAAS_TOKEN: "wrong" });
    expect(unauthorized.code).toBe(1);
    expect(unauthorized.stderr).toMatch(/^error: .*token/i);
    const down = raas(["status"], { RAAS_URL: "http://127.0.0.1:9" });
    expect(down.stderr).toMatch(/cannot reach the RaaS server at http:\/\/127\.0\.0\.1:9/);
  });
});
