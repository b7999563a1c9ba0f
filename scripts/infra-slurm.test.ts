// Runs infra/slurm/raas-cluster.sbatch outside Slurm with stand-ins: `scontrol` names two nodes,
// `srun` runs its command here, and small Node programs play the server and the worker. Checks
// what the script promises: the server is up before workers start, workers get the queue, store,
// pools and labels, Prometheus target files appear, and SIGTERM drains the workers before it
// stops the server, then removes the target files.
import { type ChildProcess, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const script = join(root, "infra/slurm/raas-cluster.sbatch");

const SERVER_STUB = `
import { appendFileSync } from "node:fs";
import { createServer } from "node:http";
const log = (line) => appendFileSync(process.env.ORDER_FILE, line + "\\n");
const server = createServer((_, res) => res.end("ok")).listen(Number(process.env.PORT), "127.0.0.1");
process.on("SIGTERM", () => { log("server stopping"); server.close(() => process.exit(0)); });
`;

const WORKER_STUB = `
import { appendFileSync, writeFileSync } from "node:fs";
const log = (line) => appendFileSync(process.env.ORDER_FILE, line + "\\n");
const { RAAS_QUEUE, DATABASE_URL, RAAS_WORKER_POOLS, RAAS_WORKER_LABELS } = process.env;
const health = await fetch(\`http://127.0.0.1:\${process.env.PORT}/health\`).then((r) => r.ok, () => false);
log(health ? "worker started, server up" : "worker started, server down");
setInterval(() => {}, 1000);
process.on("SIGTERM", () => { log("worker draining"); setTimeout(() => { log("worker drained"); process.exit(0); }, 300); });
writeFileSync(process.env.WORKER_ENV_FILE, JSON.stringify({ RAAS_QUEUE, DATABASE_URL, RAAS_WORKER_POOLS, RAAS_WORKER_LABELS }));
`;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  await new Promise<void>((done) => server.close(() => done()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

async function until(condition: () => boolean, what: string, child: ChildProcess, output: () => string) {
  for (let i = 0; i < 600 && !condition(); i++) {
    if (child.exitCode !== null)
      throw new Error(`the script exited (${child.exitCode}) before ${what}:\n${output()}`);
    await new Promise((wake) => setTimeout(wake, 100));
  }
  if (!condition()) throw new Error(`timed out waiting for ${what}:\n${output()}`);
}

let dir = "";
let running: ChildProcess | undefined;
afterEach(async () => {
  // A failed run still shuts down what it started (the script's own SIGTERM path).
  if (running && running.exitCode === null && running.signalCode === null) {
    const exited = new Promise((done) => running?.once("exit", done));
    running.kill("SIGTERM");
    await exited;
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("infra/slurm/raas-cluster.sbatch", () => {
  it("starts the server before the workers and drains the workers before stopping the server", async () => {
    dir = mkdtempSync(join(tmpdir(), "raas-sbatch-"));
    const bin = join(dir, "bin");
    const stub = (name: string, text: string) => {
      writeFileSync(join(dir, name), text);
      chmodSync(join(dir, name), 0o755);
    };
    stub("server.mjs", SERVER_STUB);
    stub("worker.mjs", WORKER_STUB);
    mkdirSync(bin);
    stub("bin/scontrol", '#!/bin/bash\n[[ "$1 $2" == "show hostnames" ]] && printf "%s\\n" node-a node-b\n');
    stub("bin/srun", '#!/bin/bash\nwhile [[ "$1" == --* ]]; do shift; done\nexec "$@"\n');
    const orderFile = join(dir, "order.log");
    const workerEnvFile = join(dir, "worker-env.json");
    const targets = join(dir, "targets");
    const child = spawn("bash", [script], {
      cwd: root,
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH}`,
        RAAS_HOME: root,
        RAAS_RUN_DIR: join(dir, "run"),
        SLURM_JOB_ID: "4242",
        SLURM_JOB_NODELIST: "node-[a-b]",
        SLURM_JOB_NUM_NODES: "2",
        PORT: String(await freePort()),
        DATABASE_URL: "postgresql://raas@db.example:5432/raas",
        RAAS_QUEUE: "redis://queue.example:6379",
        RAAS_WORKER_LABELS: "apptainer",
        RAAS_SERVER_COMMAND: `node ${join(dir, "server.mjs")}`,
        RAAS_WORKER_COMMAND: `node ${join(dir, "worker.mjs")}`,
        RAAS_PROMETHEUS_TARGETS_DIR: targets,
        ORDER_FILE: orderFile,
        WORKER_ENV_FILE: workerEnvFile,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    running = child;
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));

    await until(
      () => existsSync(workerEnvFile),
      "the worker started",
      child,
      () => output,
    );
    expect(JSON.parse(readFileSync(workerEnvFile, "utf8"))).toEqual({
      RAAS_QUEUE: "redis://queue.example:6379",
      DATABASE_URL: "postgresql://raas@db.example:5432/raas",
      RAAS_WORKER_POOLS: "init=16,run=64,eval=16",
      RAAS_WORKER_LABELS: expect.stringMatching(/^apptainer,\S+$/),
    });
    expect(JSON.parse(readFileSync(join(targets, "workers-4242.json"), "utf8"))[0].targets).toEqual([
      "node-a:9464",
      "node-b:9464",
    ]);
    expect(readFileSync(join(targets, "server-4242.json"), "utf8")).toContain('"node-a:');

    child.kill("SIGTERM");
    expect(await exited, output).toBe(0);
    expect(readFileSync(orderFile, "utf8").trim().split("\n")).toEqual([
      "worker started, server up",
      "worker draining",
      "worker drained",
      "server stopping",
    ]);
    expect(existsSync(join(targets, "workers-4242.json"))).toBe(false);
    expect(existsSync(join(targets, "server-4242.json"))).toBe(false);
  });
});
