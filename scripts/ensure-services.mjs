// Makes sure the services the tests use are up: PostgreSQL (127.0.0.1:5432) and Redis
// (127.0.0.1:6379). Starts them when installed but stopped; says what to install when missing.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import net from "node:net";

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

function has(bin) {
  return spawnSync("sh", ["-c", `command -v ${bin}`]).status === 0;
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
  if (!has("pg_ctlcluster") || !existsSync("/etc/postgresql")) {
    throw new Error(
      "PostgreSQL is not running on 127.0.0.1:5432 and is not installed: apt-get install -y postgresql",
    );
  }
  const version = readdirSync("/etc/postgresql")[0];
  console.log(`[services] starting PostgreSQL ${version}`);
  execFileSync("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", "start"], {
    stdio: "inherit",
  });
  if (!(await waitFor(5432, 15_000))) throw new Error("PostgreSQL did not come up on 127.0.0.1:5432");
}

async function ensureRedis() {
  if (await reachable(6379)) return;
  if (!has("redis-server")) {
    throw new Error(
      "Redis is not running on 127.0.0.1:6379 and is not installed: apt-get install -y redis-server",
    );
  }
  console.log("[services] starting Redis");
  execFileSync(
    "redis-server",
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
