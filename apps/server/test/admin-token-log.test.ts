// The admin token the server generates (no RAAS_ADMIN_TOKEN/RAAS_TRAINER_TOKEN set) never reaches its
// log: apps/server/src/main.ts runs with stdout and stderr written to a log file, as under a service
// manager or `2> server.log`, and detached from any terminal. The token is saved owner-only in the
// data directory instead, and it is the admin token the server accepts.
import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../../..");
const TSX = join(ROOT, "node_modules/tsx/dist/cli.mjs");
let child: ChildProcess | null = null;
let dir: string | null = null;

afterAll(async () => {
  if (child?.pid && child.exitCode === null) {
    const exited = new Promise((done) => child?.once("exit", done));
    process.kill(-child.pid, "SIGTERM");
    await exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

it("keeps a generated admin token out of the server's log file and saves it owner-only", async () => {
  dir = mkdtempSync(join(tmpdir(), "raas-admin-token-"));
  const logFile = join(dir, "server.log");
  const dataDir = join(dir, "data");
  const port = await freePort();
  const log = openSync(logFile, "w");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    RAAS_STORE: "memory",
    RAAS_DATA_DIR: dataDir,
  };
  for (const name of ["RAAS_ADMIN_TOKEN", "RAAS_TRAINER_TOKEN", "RAAS_TRAINER_TOKENS", "RAAS_VIEWER_TOKEN"])
    delete env[name];
  env.LOG_LEVEL = "info";
  child = spawn(process.execPath, [TSX, join(ROOT, "apps/server/src/main.ts")], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  const text = () => readFileSync(logFile, "utf8");
  await expect
    .poll(() => (child?.exitCode === null ? text() : `exited ${child?.exitCode}: ${text()}`), {
      timeout: 120_000,
    })
    .toContain("RaaS control plane listening");
  // A request logged on the way, with the token in its header.
  const token = readFileSync(join(dataDir, "admin-token"), "utf8").trim();
  const whoami = await fetch(`http://127.0.0.1:${port}/api/v1/whoami`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(((await whoami.json()) as { role: string }).role).toBe("admin");

  expect(token).toMatch(/^raas_\S{20,}$/);
  expect(statSync(join(dataDir, "admin-token")).mode & 0o077).toBe(0);
  expect(text()).toContain(`saved in ${join(dataDir, "admin-token")}`);
  expect(text()).not.toContain(token);
}, 180_000);
