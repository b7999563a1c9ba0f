import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** Error lines kept verbatim for the report (the count goes on). */
const KEPT_ERROR_LINES = 20;
/** Last lines kept for an exit's message. */
const TAIL_LINES = 40;

/** True for a pino JSON line at level error (50) or fatal (60). */
function isErrorLogLine(line: string): boolean {
  return /"level":(5\d|6\d)\b/.test(line);
}

/**
 * A long-running child of the bench, stopped by its own pid only. Its output is read line by
 * line and not kept (a soak logs for an hour): error lines are counted (the first few kept), and
 * a short tail names the cause when it exits early.
 */
export class SoakProcess {
  readonly #child: ChildProcess;
  /** Called with each new line, and with null once the process exited. */
  readonly #lineWaiters = new Set<(line: string | null) => void>();
  readonly #tail: string[] = [];
  readonly errorLines: string[] = [];
  readonly exited: Promise<number | null>;
  errorLineCount = 0;
  #isRunning = true;

  constructor(
    readonly name: string,
    command: string,
    args: readonly string[],
    options: { cwd: string; env: NodeJS.ProcessEnv; onLine?: (line: string) => void },
  ) {
    this.#child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    for (const stream of [this.#child.stdout, this.#child.stderr]) {
      if (!stream) continue;
      createInterface({ input: stream }).on("line", (line) => {
        this.#tail.push(line);
        if (this.#tail.length > TAIL_LINES) this.#tail.shift();
        if (isErrorLogLine(line)) {
          this.errorLineCount += 1;
          if (this.errorLines.length < KEPT_ERROR_LINES) this.errorLines.push(line);
        }
        options.onLine?.(line);
        for (const check of [...this.#lineWaiters]) check(line);
      });
    }
    this.exited = new Promise((resolve) => {
      this.#child.once("exit", (code) => {
        this.#isRunning = false;
        for (const check of [...this.#lineWaiters]) check(null);
        resolve(code);
      });
    });
  }

  get pid(): number {
    return this.#child.pid ?? 0;
  }

  get isRunning(): boolean {
    return this.#isRunning;
  }

  tail(): string {
    return this.#tail.join("\n");
  }

  /** Resolves with the first match of `pattern` in a line written from now on; rejects on exit or timeout. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
    return new Promise((resolve, reject) => {
      const finish = (outcome: RegExpExecArray | Error) => {
        clearTimeout(timer);
        this.#lineWaiters.delete(check);
        if (outcome instanceof Error) reject(new Error(`${outcome.message}\n${this.tail()}`));
        else resolve(outcome);
      };
      const timer = setTimeout(
        () => finish(new Error(`${this.name}: no line matching ${pattern} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const check = (line: string | null) => {
        if (line === null) return finish(new Error(`${this.name} exited`));
        const match = pattern.exec(line);
        if (match) finish(match);
      };
      this.#lineWaiters.add(check);
    });
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it has exited. */
  async stop(graceMs = 15_000): Promise<void> {
    if (!this.#isRunning) return;
    this.#child.kill("SIGTERM");
    const timer = setTimeout(() => this.#child.kill("SIGKILL"), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}
