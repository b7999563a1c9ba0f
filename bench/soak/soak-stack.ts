import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { SIMULATED_MODEL_NAME } from "@raas/shared";
import { SoakProcess } from "./soak-process";

const require = createRequire(import.meta.url);
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const TSX_CLI = join(dirname(require.resolve("tsx/package.json")), "dist", "cli.mjs");
const SCRIPTS = join(ROOT, "packages/handlers/data/simulator/math-code-stem.policy.json");
/** Start-up of a tsx app on a loaded 2-core machine may take minutes. */
const START_TIMEOUT_MS = 300_000;

export const ADMIN_TOKEN = "soak-admin";
export const TRAINER_TOKEN = "soak-trainer";

/** The embedded default as `npm start` runs it: simulator + server, each a child of the bench. */
export interface SoakStack {
  serverUrl: string;
  server: SoakProcess;
  simulator: SoakProcess;
  /** The server's `RAAS_DATA_DIR`; the PGlite store is `pglite/` below it. */
  dataDir: string;
  /** The server's sandbox base directory (`RAAS_SANDBOX_DIR`). */
  sandboxDir: string;
  stop(): Promise<void>;
}

/**
 * `npm start`'s simulator policy (the shipped scripts, each followed with `probability`, a wrong
 * attempt otherwise: groups disagree now and then, so dynamic sampling has work), built by the
 * script `npm start` uses.
 */
function writeDemoPolicy(dir: string, probability: number): string {
  const builder = join(ROOT, "apps/simulator/src/demo/demo-policy-main.ts");
  const built = spawnSync(
    process.execPath,
    [TSX_CLI, builder, "--scripts", SCRIPTS, "--probability", String(probability)],
    {
      cwd: ROOT,
      encoding: "utf8",
    },
  );
  if (built.status !== 0) throw new Error(`building the simulator policy failed:\n${built.stderr}`);
  const path = join(dir, "simulator-policy.json");
  writeFileSync(path, built.stdout);
  return path;
}

/**
 * Starts the simulator and the server in the embedded default (PGlite store under a fresh data
 * directory, in-memory queue, bubblewrap sandboxes, every pool in the server), with a trainer and
 * an admin token. `stop()` ends both by pid and removes the directories.
 */
export async function startSoakStack(options: { probability: number; logLevel: string }): Promise<SoakStack> {
  const scratch = mkdtempSync(join(tmpdir(), "raas-soak-"));
  // Sandboxes run as another uid and must reach their base directory below it (searchable, not
  // listable); the server keeps its data directory private itself.
  chmodSync(scratch, 0o711);
  const dataDir = join(scratch, "data");
  const sandboxDir = join(scratch, "sandboxes");
  const started: SoakProcess[] = [];
  const stop = async () => {
    await Promise.all(started.map((proc) => proc.stop()));
    rmSync(scratch, { recursive: true, force: true });
  };
  try {
    const policyFile = writeDemoPolicy(scratch, options.probability);
    const simulator = new SoakProcess(
      "simulator",
      process.execPath,
      [
        TSX_CLI,
        "apps/simulator/src/main.ts",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--policy-file",
        policyFile,
        "--model-name",
        SIMULATED_MODEL_NAME,
      ],
      { cwd: ROOT, env: { ...process.env } },
    );
    started.push(simulator);
    const simulatorUrl = (
      await simulator.waitForLine(/(http:\/\/127\.0\.0\.1:\d+)/, START_TIMEOUT_MS)
    )[1] as string;
    // `node --import tsx`: one process, so its pid is the server's own (fds, process tree).
    const server = new SoakProcess(
      "server",
      process.execPath,
      ["--import", "tsx", "apps/server/src/main.ts"],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          PORT: "0",
          HOST: "127.0.0.1",
          RAAS_DATA_DIR: dataDir,
          RAAS_SANDBOX_DIR: sandboxDir,
          RAAS_BACKENDS: `vllm=${simulatorUrl}#${SIMULATED_MODEL_NAME}`,
          RAAS_ADMIN_TOKEN: ADMIN_TOKEN,
          RAAS_TRAINER_TOKEN: TRAINER_TOKEN,
          LOG_LEVEL: options.logLevel,
        },
      },
    );
    started.push(server);
    const serverUrl = (await server.waitForLine(/listening on (http\S+)/, START_TIMEOUT_MS))[1] as string;
    return { serverUrl, server, simulator, dataDir, sandboxDir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
