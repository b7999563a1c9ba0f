// `raas workers` against the real server (a child process, memory store): the server's own
// worker with its pools, drain and resume with the admin token, refused without it, 404 named.
import { type ChildProcess, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT, startServer, TSX } from "./support/start-server";

const ADMIN = "cli-workers-admin-token";
const VIEWER = "cli-workers-viewer-token";
let server: ChildProcess;
let url: string;
let dir: string;

function raas(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [TSX, join(REPO_ROOT, "apps/cli/src/main.ts"), ...args], {
    cwd: dir,
    env: { ...process.env, RAAS_URL: url, RAAS_TOKEN: ADMIN, RAAS_DATA_DIR: join(dir, ".raas"), ...env },
    encoding: "utf8",
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "raas-cli-workers-"));
  ({ server, url } = await startServer(dir, {
    RAAS_STORE: "memory",
    RAAS_ADMIN_TOKEN: ADMIN,
    RAAS_VIEWER_TOKEN: VIEWER,
  }));
});

afterAll(() => {
  server?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
});

describe("raas workers", () => {
  it("lists the server's own worker, drains and resumes it with the admin token", () => {
    // The embedded server is one worker, "<hostname>:<pid>" (tsx runs it in a child of `server`).
    const asJson = JSON.parse(raas(["workers", "list", "--json"]).stdout) as {
      workers: Array<{ id: string; pid: number; status: string }>;
    };
    expect(asJson.workers).toHaveLength(1);
    const [worker] = asJson.workers;
    expect(worker).toMatchObject({ id: `${hostname()}:${worker?.pid}`, status: "active" });
    const workerId = worker!.id;
    const listed = raas(["workers", "list"]);
    expect(listed.stderr).toBe("");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^id\s+status\s+pools\s+sandboxes\s+heartbeat\s+labels/);
    expect(listed.stdout).toContain(workerId);
    expect(listed.stdout).toMatch(/active\s+init 0\/\d+, run 0\/\d+, eval 0\/\d+\s+0\s+(\d+ms|\d+\.\ds) ago/);

    const refused = raas(["workers", "drain", workerId], { RAAS_TOKEN: VIEWER });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: .*admin/i);

    const drained = raas(["workers", "drain", workerId, "--json"]);
    expect(drained.code).toBe(0);
    expect(JSON.parse(drained.stdout).worker).toMatchObject({ id: workerId, status: "draining" });
    const resumed = raas(["workers", "resume", workerId]);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`resumed ${workerId}: now active`);
  });

  it("names an unknown worker and a missing id in one line, exit 1", () => {
    const unknown = raas(["workers", "drain", "node-9:1"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: no worker with id "node-9:1"/);
    const missing = raas(["workers", "resume"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: missing worker id/);
  });
});
