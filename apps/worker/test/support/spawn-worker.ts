import { type ChildProcess, spawn } from "node:child_process";
import { hostname } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = join(import.meta.dirname, "..", "..", "..", "..");
// `--import` the loader rather than tsx's CLI, which would run the worker in a second process:
// the pid here must be the worker's own (tests kill it by pid).
const TSX_LOADER = pathToFileURL(join(ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href;
const MAIN = join(ROOT, "apps", "worker", "src", "main.ts");

export interface SpawnedWorker {
  pid: number;
  /** Its id in the store and `workers.list`: `<hostname>:<pid>`. */
  id: string;
  /** Base URL of its `/health` and `/metrics`. */
  httpUrl: string;
  /** SIGTERM (drain, wait for its jobs, stop); resolves to the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL; resolves once it is gone. */
  kill(): Promise<void>;
  /** Resolves to the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** Everything it wrote to stdout and stderr so far (JSON log lines and the start line). */
  output(): string;
}

/**
 * Starts `apps/worker` as a child process with `env` over this process's environment (metrics
 * port 0, LOG_LEVEL warn unless given) and resolves once it has registered in the store and
 * printed its start line. Rejects with its output when it exits first or takes longer than
 * `timeoutMs` (default 60 s, a loaded machine's tsx start included).
 */
export async function spawnWorker(
  env: Record<string, string>,
  options: {
    timeoutMs?: number;
    /** Called with everything it wrote so far, at each write (a test waiting for a log line). */
    onOutput?: (output: string) => void;
  } = {},
): Promise<SpawnedWorker> {
  const child: ChildProcess = spawn(process.execPath, ["--import", TSX_LOADER, MAIN], {
    cwd: ROOT,
    env: { ...process.env, RAAS_WORKER_METRICS_PORT: "0", LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    options.onOutput?.(output);
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
    options.onOutput?.(output);
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const started = await new Promise<{ id: string; httpUrl: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`worker did not start within ${options.timeoutMs ?? 150_000} ms:\n${output}`));
    }, options.timeoutMs ?? 150_000);
    const onData = () => {
      const match = /RaaS worker (\S+) running pools [^;]*; health and metrics on (\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({ id: match[1]!, httpUrl: match[2]! });
    };
    child.stderr?.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code} before it started:\n${output}`));
    });
  });
  const pid = child.pid!;
  if (started.id !== `${hostname()}:${pid}`) throw new Error(`unexpected worker id ${started.id}`);
  return {
    pid,
    id: started.id,
    httpUrl: started.httpUrl,
    exited,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
