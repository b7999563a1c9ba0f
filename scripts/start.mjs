// `npm start`: runs RaaS on embedded defaults (PGlite under ./.raas, in-memory queue, bubblewrap
// sandboxes, no services needed): the control-plane server, the web dashboard and — when no
// inference backend is configured — the inference simulator (the labelled test double for a GPU
// model), supervised together.
// Options: --no-web, --no-demo (no demo data: see `raas demo`). Environment: RAAS_DEMO=0 (no demo;
// 1 runs it with real backends too),
// PORT (server, default 8080), WEB_PORT (default 3000), SIMULATOR_PORT (default a free port),
// RAAS_BACKENDS (real backends, e.g. vllm=http://gpu-1:8000; when set no simulator starts),
// RAAS_NO_APT=1 (never install system packages), plus everything apps/server/src/env.ts documents.
// Before anything starts, the system packages rollouts need (bubblewrap, python3, python3-pytest,
// git) are checked: installed when running as root with apt, else it stops with the command.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";
import { ensureSystemPackages, rolloutRequirements } from "./system-packages.mjs";
import { writeToTerminal } from "./terminal-only.mjs";
import { ensureWebBuild, hasWebBuild, nextBin } from "./web-build.mjs";

// Never accept work that cannot run: without its sandbox runtime every rollout would fail.
if (
  !ensureSystemPackages(rolloutRequirements({ runtime: process.env.RAAS_SANDBOX_RUNTIME ?? "bubblewrap" }), {
    label: "start",
  })
) {
  process.exit(1);
}
const simulatorPort = parsePort("SIMULATOR_PORT", process.env.SIMULATOR_PORT);

/** A TCP port from an environment variable (1–65535), undefined when unset; stops when invalid. */
function parsePort(name, value) {
  if (value === undefined || value.trim() === "") return undefined;
  const port = Number(value);
  if (Number.isInteger(port) && port >= 1 && port <= 65_535) return port;
  console.error(`[start] ${name}: expected a TCP port from 1 to 65535, got ${JSON.stringify(value)}`);
  process.exit(2);
}

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const tsx = join(dirname(require.resolve("tsx/package.json")), "dist", "cli.mjs");
const withWeb = !process.argv.includes("--no-web") && existsSync(join(root, "apps/web/next.config.ts"));
// The demo (`raas demo`: training runs and benchmark runs to look at): on with the simulator unless
// switched off; with real backends (RAAS_BACKENDS) only when asked for (RAAS_DEMO=1), so a real
// deployment never spends GPU time on it unasked.
const demoSetting = (process.env.RAAS_DEMO ?? "").trim().toLowerCase();
const withDemo =
  !process.argv.includes("--no-demo") &&
  !["0", "false", "no"].includes(demoSetting) &&
  ((process.env.RAAS_BACKENDS ?? "").trim() === "" || ["1", "true", "yes"].includes(demoSetting));
// The defaults the apps use, from the one place that owns them (a TypeScript module, hence tsx).
const { DEFAULT_DATA_DIR, DEFAULT_SERVER_PORT, SIMULATED_MODEL_NAME } = await tsImport(
  "@raas/shared/defaults",
  import.meta.url,
);
const serverPort = process.env.PORT ?? String(DEFAULT_SERVER_PORT);
const webPort = process.env.WEB_PORT ?? "3000";
const dataDir = resolve(root, process.env.RAAS_DATA_DIR ?? DEFAULT_DATA_DIR);
const configuredBackends = (process.env.RAAS_BACKENDS ?? "").trim();
const simulatorPolicyFile = join(root, "packages/handlers/data/simulator/math-code-stem.policy.json");
const sweDataset = join(root, "packages/handlers/data/swe/instances.jsonl");
const sweBundles = join(root, "packages/handlers/data/swe/bundles");
/** Chance that the simulator follows a task's script in a trajectory (see writeSimulatorPolicy). */
const SIMULATED_SOLVE_PROBABILITY = "0.6";
const children = [];

function adminToken() {
  if (process.env.RAAS_ADMIN_TOKEN) return process.env.RAAS_ADMIN_TOKEN;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // owner-only: it holds the admin token and the database
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

/** A TCP port that is free right now on 127.0.0.1. */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });
}

/**
 * The simulator's policy for the shipped tasks, written to `<dataDir>/simulator-policy.json`: each
 * math/code/stem task follows its script (some solve it, some fail on purpose) and each SWE fixture
 * its gold patch with probability SIMULATED_SOLVE_PROBABILITY, else makes a wrong attempt — one
 * draw per trajectory (from its sampling seed, afresh without one), so a group's members disagree
 * now and then and the
 * demo's reward curves and informative groups are not flat. Null when the scripts are missing.
 */
function writeSimulatorPolicy() {
  if (!existsSync(simulatorPolicyFile)) return null;
  const builder = join(root, "apps/simulator/src/demo/demo-policy-main.ts");
  const args = [tsx, builder, "--scripts", simulatorPolicyFile, "--probability", SIMULATED_SOLVE_PROBABILITY];
  const built = spawnSync(
    process.execPath,
    [...args, ...(existsSync(sweDataset) ? ["--swe-dataset", sweDataset] : [])],
    {
      cwd: root,
      encoding: "utf8",
    },
  );
  mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // owner-only: it holds the admin token and the database
  const path = join(dataDir, "simulator-policy.json");
  if (built.status === 0) writeFileSync(path, built.stdout);
  else {
    console.error(
      `[start] could not build the simulator's coin-flip policy; it follows the scripts alone\n${built.stderr}`,
    );
    writeFileSync(path, readFileSync(simulatorPolicyFile));
  }
  return path;
}

/**
 * Starts the simulator on SIMULATOR_PORT (else a free port) with scripts for the shipped tasks (a
 * success-probability policy when they are missing). Returns its URL.
 */
async function launchSimulator() {
  const port = simulatorPort ?? (await freePort());
  const policyFile = writeSimulatorPolicy();
  const policy = policyFile ? ["--policy-file", policyFile] : ["--policy", "success-probability"];
  const args = [tsx, "apps/simulator/src/main.ts", "--host", "127.0.0.1", "--port", String(port)];
  // The simulator speaks the server's model family: its tokenizer directory or built-in format.
  const family = process.env.RAAS_TOKENIZER_DIR
    ? ["--tokenizer-dir", process.env.RAAS_TOKENIZER_DIR]
    : process.env.RAAS_CHAT_FORMAT
      ? ["--model-family", process.env.RAAS_CHAT_FORMAT]
      : [];
  launch(
    "simulator",
    process.execPath,
    [...args, ...policy, ...family, "--model-name", SIMULATED_MODEL_NAME],
    {},
  );
  return `http://127.0.0.1:${port}`;
}

/**
 * Writes `<dataDir>/example-rollouts.jsonl`: the shipped math, code and stem tasks as submit
 * requests, for `npm run raas -- submit <file>`. Returns its path, or null when the data is missing.
 */
function writeExampleRollouts() {
  const lines = [];
  for (const kind of ["math", "code", "stem"]) {
    const file = join(root, "packages/handlers/data", `${kind}.jsonl`);
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (line.trim() !== "") lines.push(JSON.stringify({ kind, payload: JSON.parse(line) }));
    }
  }
  if (lines.length === 0) return null;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 }); // owner-only: it holds the admin token and the database
  const path = join(dataDir, "example-rollouts.jsonl");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

/**
 * Starts `raas demo` against the server: short training runs and two SWE-bench runs, idempotent
 * across restarts. It is started beside the loading server (so that both load at once) and waits
 * for it to answer. Its end (or failure) stops nothing else.
 */
function launchDemo(url, token) {
  const child = spawn(process.execPath, [tsx, "apps/cli/src/main.ts", "demo", "--wait-for-server", "600"], {
    cwd: root,
    env: { ...process.env, RAAS_URL: url, RAAS_TOKEN: token },
    stdio: ["ignore", "inherit", "inherit"],
  });
  child.on("exit", (code, signal) => {
    if (!shuttingDown && code !== 0)
      console.error(`[start] the demo stopped (${signal ?? code}); the service keeps running`);
  });
  children.push(child);
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
// No backend configured: the simulator stands in, so rollouts run end to end on any machine.
const simulatorUrl = configuredBackends === "" ? await launchSimulator() : null;
launch("server", process.execPath, [tsx, "apps/server/src/main.ts"], {
  PORT: serverPort,
  RAAS_ADMIN_TOKEN: token,
  RAAS_DATA_DIR: dataDir,
  ...(simulatorUrl ? { RAAS_BACKENDS: `vllm=${simulatorUrl}#${SIMULATED_MODEL_NAME}` } : {}),
  // The swe handler over the shipped fixture repositories unless the caller names others.
  ...(!process.env.RAAS_SWE_REPOS_DIR && existsSync(sweBundles) ? { RAAS_SWE_REPOS_DIR: sweBundles } : {}),
  // The fixtures' test suites finish in about a second: fail a hung one fast (default 15 min).
  RAAS_SWE_TEST_TIMEOUT_MS: process.env.RAAS_SWE_TEST_TIMEOUT_MS ?? "20000",
});
// Generous: a busy 2-core machine may take minutes to load the server; one that exits stops
// everything at once anyway (launch's exit handler), so waiting longer never hides a crash.
// The demo starts as soon as its backend answers, beside the loading server, and waits for it.
try {
  await Promise.all([
    waitForHttp(`${serverUrl}/health`, 600_000),
    (async () => {
      if (simulatorUrl) await waitForHttp(`${simulatorUrl}/health`, 600_000);
      if (withDemo) launchDemo(serverUrl, token);
    })(),
  ]);
} catch (error) {
  console.error(`[start] ${error.message}`);
  stop(1);
  await new Promise(() => {}); // stop() exits the process
}
console.error(`[start] the API answered ${(performance.now() / 1_000).toFixed(1)} s after start`);

const examples = writeExampleRollouts();
const inferenceLines = simulatorUrl
  ? [
      `  inference      SIMULATOR at ${simulatorUrl} — the labelled test double for a GPU model, not a model:`,
      "                 it answers the shipped math/code/stem tasks and SWE fixtures from scripts (some failed on purpose),",
      `                 each trajectory following its script with probability ${SIMULATED_SOLVE_PROBABILITY} (a coin flip per trajectory), else answering wrongly.`,
      "                 For a real model: RAAS_BACKENDS=vllm=http://<host>:8000 npm start  (sglang=…, nemo-rl=… too;",
      `                 RAAS_MODEL names the served model), or register one at run time: POST ${serverUrl}/api/v1/backends`,
    ]
  : [`  inference      RAAS_BACKENDS=${configuredBackends}   (list: GET ${serverUrl}/api/v1/backends)`];
const sweBackend = simulatorUrl
  ? `${simulatorUrl} --model "${SIMULATED_MODEL_NAME}"`
  : "<backend URL> --model <name>";
const tryLines = [
  ...(examples ? [`Real rollouts:  npm run raas -- submit ${examples} --wait`] : []),
  ...(existsSync(sweDataset)
    ? [`SWE eval:       npm run raas -- eval swe --dataset ${sweDataset} --backend ${sweBackend}`]
    : []),
  "Queues only:    npm run raas -- submit --demo 50   then   npm run raas -- status --watch",
  withDemo
    ? "Demo:           running now (training runs demo-*, benchmark runs demo-swe-*); off with --no-demo or RAAS_DEMO=0"
    : "Demo:           off (npm run raas -- demo  fills the dashboard; RAAS_DEMO=1 runs it at start)",
];
// The API, the examples and how to use them first: the dashboard build below can take minutes.
// The admin token goes to the terminal only: this output is often a log file (`npm start > log`,
// a service's journal), and a log must never hold a token.
const tokenWhere = process.env.RAAS_ADMIN_TOKEN
  ? "from RAAS_ADMIN_TOKEN"
  : `saved in ${join(dataDir, "admin-token")} (owner-only; the CLI uses it automatically)`;
console.log(`
RaaS is running (embedded defaults: PGlite store in ${dataDir}, in-memory queue, bubblewrap sandboxes)
  control plane  ${serverUrl}   (REST ${serverUrl}/api/v1, OpenAPI ${serverUrl}/openapi.json, metrics ${serverUrl}/metrics)
${inferenceLines.join("\n")}
  admin token    ${tokenWhere}; printed on the terminal only, never in this output`);
writeToTerminal(`  admin token    ${token}\n`);
console.log(tryLines.join("\n"));

let webUrl = null;
if (!withWeb) console.log("  dashboard      (not started: --no-web)");
else {
  console.log(
    "[start] dashboard: starting (a build runs first when its sources changed; the API above is usable meanwhile)",
  );
  if (!ensureWebBuild(root, { log: (line) => console.error(`[start] ${line}`) })) {
    console.error(
      "[start] dashboard build failed; the API keeps running. Retry with: npm run build -w @raas/web",
    );
  }
  if (hasWebBuild(root)) {
    launch("web", process.execPath, [nextBin(root), "start", "apps/web", "-p", webPort, "-H", "127.0.0.1"], {
      RAAS_SERVER_URL: serverUrl,
    });
    webUrl = `http://127.0.0.1:${webPort}`;
    await waitForHttp(webUrl, 60_000).catch((error) => console.error(`[start] ${error.message}`));
  }
}

if (withWeb) console.log(`  dashboard      ${webUrl ?? "(not started)"}`);
console.log("Stop with Ctrl-C.");
