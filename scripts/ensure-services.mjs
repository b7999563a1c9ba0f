// Makes sure the services the tests use are up: PostgreSQL (127.0.0.1:5432) and Redis
// (127.0.0.1:6379). Starts them when installed but stopped; when missing, installs them as root
// with apt or says what to install (scripts/system-packages.mjs, shared with start and test).
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import net from "node:net";
import {
  ensureSystemPackages,
  findExecutable,
  hasPostgresInstalled,
  SYSTEM_PATH,
} from "./system-packages.mjs";

function reachable(port, host = "127.0.0.1", timeoutMs = 1_000) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** Installs a missing service package (root + apt) or stops with the command to run. */
function requirePackage(apt, label, present) {
  if (!ensureSystemPackages([{ apt, label, present }], { label: "services" })) {
    throw new Error(`${label} is needed; install it as shown above`);
  }
}

async function waitFor(port, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await reachable(port)) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

async function ensurePostgres() {
  if (await reachable(5432)) return;
  requirePackage("postgresql", "PostgreSQL (not running on 127.0.0.1:5432)", hasPostgresInstalled);
  const version = readdirSync("/etc/postgresql")[0];
  console.log(`[services] starting PostgreSQL ${version}`);
  execFileSync(
    findExecutable("pg_ctlcluster", SYSTEM_PATH),
    ["--skip-systemctl-redirect", version, "main", "start"],
    {
      stdio: "inherit",
    },
  );
  if (!(await waitFor(5432, 15_000))) throw new Error("PostgreSQL did not come up on 127.0.0.1:5432");
}

async function ensureRedis() {
  if (await reachable(6379)) return;
  const redisServer = () => findExecutable("redis-server", SYSTEM_PATH);
  requirePackage("redis-server", "Redis (not running on 127.0.0.1:6379)", () => redisServer() !== null);
  console.log("[services] starting Redis");
  execFileSync(
    redisServer(),
    ["--daemonize", "yes", "--bind", "127.0.0.1", "--port", "6379", "--save", "", "--appendonly", "no"],
    { stdio: "inherit" },
  );
  if (!(await waitFor(6379, 10_000))) throw new Error("Redis did not come up on 127.0.0.1:6379");
}

try {
  await ensurePostgres();
  await ensureRedis();
  console.log("[services] PostgreSQL 127.0.0.1:5432 and Redis 127.0.0.1:6379 are up");
} catch (error) {
  console.error(`[services] ${error.message}`);
  process.exit(1);
}
