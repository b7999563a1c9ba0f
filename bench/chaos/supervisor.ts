// What an operator's process supervisor (systemd `Restart=always`, a Slurm requeue) does for the
// deployment: any server or worker process that exits is started again — the server on the same
// port, a worker in the same slot with a fresh sandbox base directory. It records every exit and
// whether a fault of the driver caused it; an exit nobody caused is a crash the report names.
// It never restarts a process that still runs: stuck work must recover on its own.
import { hostname } from "node:os";
import type { Deployment, ServerHandle } from "../../apps/server/test/distributed/support/deployment";
import { type SpawnedWorker, spawnWorker } from "../../apps/worker/test/support/spawn-worker";
import type { ProcessExitRecord } from "./chaos.types";
import type { SandboxDisks } from "./sandbox-disks";

const RESTART_DELAY_MS = 1_000;
const START_RETRY_MS = 2_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface SupervisorOptions {
  deployment: Deployment;
  disks: SandboxDisks;
  serverPort: number;
  /** Environment of every worker beyond the deployment's shared one (pools, backends, grace). */
  workerEnv: Record<string, string>;
  serverEnv: Record<string, string>;
}

export interface SlotWorker {
  slot: number;
  worker: SpawnedWorker;
  baseDir: string;
}

/** One worker process's life: where its sandboxes lived and when it ended. */
export interface WorkerLife {
  id: string;
  pid: number;
  slot: number;
  baseDir: string;
  exitedAtMs: number | null;
}

export class Supervisor {
  readonly exits: ProcessExitRecord[] = [];
  /** Every worker that ever ran (to tell a gone host from a live one, and since when). */
  readonly lives: WorkerLife[] = [];
  readonly #allWorkers: SpawnedWorker[] = [];
  readonly #workers = new Map<number, SlotWorker>();
  readonly #expected = new Set<number>();
  readonly #restarts: Array<Promise<void>> = [];
  #server: ServerHandle | null = null;
  #stopping = false;

  constructor(private readonly options: SupervisorOptions) {}

  get serverUrl(): string {
    return `http://127.0.0.1:${this.options.serverPort}`;
  }

  get server(): ServerHandle | null {
    return this.#server;
  }

  /** Workers running now, by slot. */
  liveWorkers(): SlotWorker[] {
    return [...this.#workers.values()];
  }

  /** Every process output seen so far (workers and servers, exited ones included). */
  outputs(): string[] {
    return [
      ...this.options.deployment.processes.map((proc) => proc.lines.join("\n")),
      ...this.#allWorkers.map((worker) => worker.output()),
    ];
  }

  async start(slots: number): Promise<void> {
    await this.#startServer();
    await Promise.all(Array.from({ length: slots }, (_, slot) => this.#startWorker(slot)));
  }

  /** The driver is about to stop `pid`: its exit is the fault's, not a crash. */
  expectExit(pid: number): void {
    this.#expected.add(pid);
  }

  /** Stops restarting; the processes themselves are stopped by the deployment and `stopWorkers`. */
  async stop(): Promise<void> {
    this.#stopping = true;
    await Promise.allSettled(this.#restarts);
    await Promise.all(this.liveWorkers().map(({ worker }) => worker.kill()));
  }

  async #startServer(): Promise<void> {
    for (;;) {
      try {
        const server = await this.options.deployment.startServer({
          PORT: String(this.options.serverPort),
          LOG_LEVEL: "warn",
          ...this.options.serverEnv,
        });
        this.#server = server;
        void server.proc.exited.then((exit) => {
          this.#record("server", "run", server.proc.pid, exit.code, server.proc.tail(15));
          if (this.#server === server) this.#server = null;
          this.#restart(() => this.#startServer());
        });
        return;
      } catch (error) {
        if (this.#stopping) return;
        this.#record("server", "start", 0, null, String(error).slice(-1_500));
        await sleep(START_RETRY_MS);
      }
    }
  }

  async #startWorker(slot: number): Promise<void> {
    for (;;) {
      if (this.#stopping) return;
      const baseDir = this.options.disks.nextBaseDir(slot);
      try {
        const worker = await spawnWorker(
          {
            ...this.options.deployment.sharedEnv(),
            LOG_LEVEL: "warn",
            RAAS_SANDBOX_DIR: baseDir,
            ...this.options.workerEnv,
          },
          { timeoutMs: 120_000 },
        );
        this.#allWorkers.push(worker);
        const life: WorkerLife = { id: worker.id, pid: worker.pid, slot, baseDir, exitedAtMs: null };
        this.lives.push(life);
        this.#workers.set(slot, { slot, worker, baseDir });
        void worker.exited.then((code) => {
          life.exitedAtMs = Date.now();
          const tail = worker.output().split("\n").slice(-15).join("\n");
          this.#record(`worker slot ${slot}`, "run", worker.pid, code, tail);
          if (this.#workers.get(slot)?.worker === worker) this.#workers.delete(slot);
          this.#restart(() => this.#startWorker(slot));
        });
        return;
      } catch (error) {
        this.#record(`worker slot ${slot}`, "start", 0, null, String(error).slice(-1_500));
        await sleep(START_RETRY_MS);
      }
    }
  }

  #restart(start: () => Promise<void>): void {
    if (this.#stopping) return;
    this.#restarts.push(sleep(RESTART_DELAY_MS).then(start));
  }

  #record(name: string, during: "start" | "run", pid: number, code: number | null, tail: string): void {
    if (this.#stopping) return;
    const expected = this.#expected.has(pid);
    this.exits.push({ name, during, pid, atMs: Date.now(), expected, code, tail });
  }
}

/** True while the worker with this id (`<hostname>:<pid>`) runs (one the bench never started: false). */
export function isWorkerAlive(workerId: string, lives: readonly WorkerLife[]): boolean {
  const life = lives.find((candidate) => candidate.id === workerId);
  if (!life || life.exitedAtMs !== null || !workerId.startsWith(`${hostname()}:`)) return false;
  try {
    process.kill(life.pid, 0);
    return true;
  } catch {
    return false;
  }
}
