import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** How a child process ended. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface RaasProcessOptions {
  /** For messages: `server`, `worker-2`. */
  name: string;
  /** Absolute path of the TypeScript entry (`apps/server/src/main.ts`). */
  entry: string;
  /** The process's whole environment besides PATH/HOME/TMPDIR/LANG (nothing else leaks in). */
  env: Record<string, string>;
}

const INHERITED = ["PATH", "HOME", "TMPDIR", "LANG", "USER"] as const;

/**
 * An app run as a child of the test: `node --import tsx <entry>` — one process, so its pid is the
 * app's own and a kill by pid hits the app, not a launcher. Every stdout/stderr line is kept.
 */
export class RaasProcess {
  readonly lines: string[] = [];
  readonly exited: Promise<ProcessExit>;
  readonly #child: ChildProcess;
  readonly #waiters = new Set<() => void>();
  #exit: ProcessExit | null = null;

  private constructor(readonly options: RaasProcessOptions) {
    const env: Record<string, string> = {};
    for (const key of INHERITED) if (process.env[key] !== undefined) env[key] = process.env[key];
    this.#child = spawn(process.execPath, ["--import", "tsx", options.entry], {
      env: { ...env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    for (const stream of [this.#child.stdout, this.#child.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream }).on("line", (line) => {
        this.lines.push(line);
        for (const wake of this.#waiters) wake();
      });
    }
    this.exited = new Promise((resolve) => {
      this.#child.once("exit", (code, signal) => {
        this.#exit = { code, signal };
        for (const wake of this.#waiters) wake();
        resolve(this.#exit);
      });
    });
  }

  static start(options: RaasProcessOptions): RaasProcess {
    return new RaasProcess(options);
  }

  get pid(): number {
    return this.#child.pid ?? 0;
  }

  get isRunning(): boolean {
    return this.#exit === null;
  }

  /** The first line (from the start) matching `pattern`; fails if the process exits first. */
  waitForLine(pattern: RegExp, timeoutMs = 60_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => settle(new Error(`timed out waiting for ${pattern}`)), timeoutMs);
      const settle = (error: Error | null, line?: string) => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        if (error) reject(new Error(`${this.options.name}: ${error.message}\n${this.tail()}`));
        else resolve(line as string);
      };
      const check = () => {
        const line = this.lines.find((candidate) => pattern.test(candidate));
        if (line !== undefined) settle(null, line);
        else if (this.#exit) settle(new Error(`exited (${JSON.stringify(this.#exit)}) before ${pattern}`));
      };
      this.#waiters.add(check);
      check();
    });
  }

  /** The last lines of output, for failure messages. */
  tail(count = 30): string {
    return this.lines.slice(-count).join("\n");
  }

  /** kill -9 by its pid; resolves once it is gone. */
  async killHard(): Promise<ProcessExit> {
    if (this.isRunning) process.kill(this.pid, "SIGKILL");
    return this.exited;
  }

  /** SIGTERM (a graceful stop), then SIGKILL after `graceMs`. */
  async stop(graceMs = 30_000): Promise<ProcessExit> {
    if (!this.isRunning) return this.exited;
    process.kill(this.pid, "SIGTERM");
    const timer = setTimeout(() => {
      if (this.isRunning) process.kill(this.pid, "SIGKILL");
    }, graceMs);
    const exit = await this.exited;
    clearTimeout(timer);
    return exit;
  }
}
