// `npm start`: runs RaaS on embedded defaults (PGlite under ./.raas, in-memory queue, no services
// needed): the control-plane server and the web dashboard, supervised together.
// Options: --no-web. Environment: PORT (server, default 8080), WEB_PORT (default 3000), plus
// everything apps/server/src/env.ts documents.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const tsx = join(dirname(require.resolve("tsx/package.json")), "dist", "cli.mjs");
const withWeb = !process.argv.includes("--no-web") && existsSync(join(root, "apps/web/next.config.ts"));
const serverPort = process.env.PORT ?? "8080";
const webPort = process.env.WEB_PORT ?? "3000";
const dataDir = resolve(root, process.env.RAAS_DATA_DIR ?? ".raas");
const children = [];

function adminToken() {
  if (process.env.RAAS_ADMIN_TOKEN) return process.env.RAAS_ADMIN_TOKEN;
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, "admin-token");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const token = `raas_admin_${randomBytes(18).toString("base64url")}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}

function launch(name, command, args, env) {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "inherit", "inherit"],
  });
  child.on("exit", (code, signal) => {
    if (shuttingDown) return;
    console.error(`[start] ${name} exited (${signal ?? code}); stopping everything`);
    stop(code ?? 1);
  });
  children.push(child);
  return child;
}

async function waitForHttp(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000}s`);
}

/** The dashboard build is missing or older than a source file it is built from. */
function isWebBuildStale() {
  const buildId = join(root, "apps/web/.next/BUILD_ID");
  if (!existsSync(buildId)) return true;
  const builtAt = statSync(buildId).mtimeMs;
  const newest = (dir) => {
    let latest = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === ".next") continue;
      const path = join(dir, entry.name);
      latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
    }
    return latest;
  };
  return ["apps/web", "packages/shared/src", "packages/api/src"].some(
    (dir) => newest(join(root, dir)) > builtAt,
  );
}

let shuttingDown = false;
function stop(code) {
  shuttingDown = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 1_500).unref();
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : null))).then(
    () => process.exit(code),
  );
}
process.on("SIGINT", () => stop(0));
process.on("SIGTERM", () => stop(0));

const token = adminToken();
const serverUrl = `http://127.0.0.1:${serverPort}`;
launch("server", process.execPath, [tsx, "apps/server/src/main.ts"], {
  PORT: serverPort,
  RAAS_ADMIN_TOKEN: token,
  RAAS_DATA_DIR: dataDir,
});
try {
  await waitForHttp(`${serverUrl}/health`, 120_000);
} catch (error) {
  console.error(`[start] ${error.message}`);
  stop(1);
}

let webUrl = null;
if (withWeb) {
  const nextBin = join(dirname(require.resolve("next/package.json")), "dist", "bin", "next");
  if (isWebBuildStale()) {
    console.error("[start] building the dashboard (next build; only when its sources changed)…");
    const build = spawnSync(process.execPath, [nextBin, "build"], {
      cwd: join(root, "apps/web"),
      stdio: "inherit",
    });
    if (build.status !== 0) {
      console.error(
        "[start] dashboard build failed; the API keeps running. Retry with: npm run build -w @raas/web",
      );
    }
  }
  if (existsSync(join(root, "apps/web/.next/BUILD_ID"))) {
    launch("web", process.execPath, [nextBin, "start", "apps/web", "-p", webPort, "-H", "127.0.0.1"], {
      RAAS_SERVER_URL: serverUrl,
    });
    webUrl = `http://127.0.0.1:${webPort}`;
    await waitForHttp(webUrl, 60_000).catch((error) => console.error(`[start] ${error.message}`));
  }
}

console.log(`
RaaS is running (embedded defaults: PGlite store in ${dataDir}, in-memory queue)
  control plane  ${serverUrl}   (REST ${serverUrl}/api/v1, OpenAPI ${serverUrl}/openapi.json, metrics ${serverUrl}/metrics)
  dashboard      ${webUrl ?? "(not started)"}
  admin token    ${token}   (saved in ${join(dataDir, "admin-token")}; the CLI uses it automatically)
Try: npm run raas -- submit --demo 50   then   npm run raas -- status --watch
Stop with Ctrl-C.`);
