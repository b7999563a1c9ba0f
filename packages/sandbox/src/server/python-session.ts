import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import type { ExecToolResult } from "../protocol/exec-protocol.types";
import { errorResult } from "./error-result";
import { limitHitOf } from "./limit-detection";
import { OutputBuffer } from "./output-buffer";
import { jailedProgramPid, killProcessGroup, partialPrefixLength, withUlimits } from "./process-support";
import { createCommandNonce } from "./prompt-marker";

export interface PythonSessionOptions {
  /** Path of python-driver.py as seen by this process. */
  driverPath: string;
  cwd: string;
  env: Record<string, string>;
  /** Interpreter binary. Default `python3` (looked up in `env.PATH`). */
  pythonPath?: string;
  /** `sh` ulimit flags applied to the interpreter, e.g. `["-v 1048576", "-t 60"]`. Default none. */
  ulimitFlags?: string[];
  /** Output budget per cell in bytes. Default 64 KiB. */
  maxOutputBytes?: number;
  /** Time a cell gets to honour KeyboardInterrupt before the interpreter is killed, in ms. Default 1000. */
  interruptGraceMs?: number;
  /** Turns the interpreter's argv into the argv actually started (the tool jail). Default: unchanged. */
  wrapArgv?: (argv: string[]) => string[];
  /** The started process is a jail (bwrap), and the interpreter runs two levels below it. Default false. */
  isJailed?: boolean;
}

interface PendingCell {
  /** The interpreter running the cell. */
  child: ChildProcess;
  output: OutputBuffer;
  /** The cell's seal: chosen only once the driver says the cell is done (see python-driver.py). */
  nonce: string;
  /** The end marker with the seal; null until the seal is sent. */
  marker: RegExp | null;
  token: string;
  finish: (status: string | null, note?: string) => void;
}

/**
 * A persistent python3 interpreter running python-driver.py. Cells arrive on fd 3; output
 * comes back on stdout. When the driver reports a cell done on fd 4, the session answers with a
 * fresh seal nonce, and the driver ends the cell's output with a marker carrying it — so no
 * marker exists anywhere while the cell's code runs, and no cell can print its own end. A
 * timeout sends SIGINT (KeyboardInterrupt) and keeps the interpreter; only one that ignores
 * the interrupt is killed and restarted.
 */
export class PythonSession {
  readonly #options: Required<PythonSessionOptions>;
  /** Only for the ready line; cells end with markers of their own nonces. */
  readonly #nonce = randomBytes(6).toString("hex");
  #child: ChildProcess | undefined;
  #ready: Promise<void> | undefined;
  #text = "";
  #pending: PendingCell | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  /** Cells sent to the current interpreter (the driver numbers its "done" messages the same way). */
  #cellsSent = 0;

  constructor(options: PythonSessionOptions) {
    this.#options = {
      pythonPath: "python3",
      ulimitFlags: [],
      wrapArgv: (argv) => argv,
      isJailed: false,
      maxOutputBytes: 65_536,
      interruptGraceMs: 1_000,
      ...options,
    };
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(): Promise<void> {
    this.#ready ??= this.#spawn();
    return this.#ready;
  }

  run(code: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<ExecToolResult> {
    const result = this.#queue.then(() => this.#runNow(code, options));
    this.#queue = result.catch(() => undefined);
    return result;
  }

  close(): void {
    const child = this.#child;
    this.#child = undefined;
    this.#ready = undefined;
    if (child?.pid !== undefined) killProcessGroup(child.pid);
  }

  #spawn(): Promise<void> {
    const { pythonPath, driverPath, ulimitFlags } = this.#options;
    const argv = this.#options.wrapArgv(
      withUlimits(ulimitFlags, [pythonPath, "-u", driverPath, this.#nonce]),
    );
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: this.#options.cwd,
      env: this.#options.env,
      stdio: ["ignore", "pipe", "pipe", "pipe", "pipe"],
      detached: true,
    });
    this.#child = child;
    this.#cellsSent = 0;
    // Writes to an interpreter that just died (EPIPE) must not take the server down.
    for (const stream of child.stdio) stream?.on("error", () => undefined);
    this.#text = "";
    child.stdout?.setEncoding("utf8");
    child.stderr?.setEncoding("utf8");
    return new Promise((resolve, reject) => {
      let started = false;
      const readyLine = `__RAAS_PY_${this.#nonce}_ready__\n`;
      child.stdout?.on("data", (chunk: string) => {
        if (!started) {
          this.#text += chunk;
          const at = this.#text.indexOf(readyLine);
          if (at < 0) return;
          started = true;
          this.#text = this.#text.slice(at + readyLine.length);
          resolve();
          if (this.#text.length > 0) this.#onOutput("");
          return;
        }
        // A replaced interpreter's last words belong to no cell of the new one.
        if (this.#child === child) this.#onOutput(chunk);
      });
      child.stderr?.on("data", (chunk: string) => {
        if (this.#child === child) this.#onOutput(chunk);
      });
      const control = child.stdio[4] as NodeJS.ReadableStream;
      control.setEncoding("utf8");
      let controlText = "";
      control.on("data", (chunk: string) => {
        controlText += chunk;
        const lines = controlText.split("\n");
        controlText = lines.pop() ?? "";
        for (const line of lines) this.#onCellDone(child, line);
      });
      child.on("error", (error) => {
        if (!started) reject(new Error(`cannot start ${pythonPath}: ${error.message}`));
      });
      child.on("exit", (code, signal) => {
        if (this.#child === child) {
          this.#child = undefined;
          this.#ready = undefined;
        }
        // 127: the shell (ulimits, the tool jail) found no such command — the image has no Python.
        if (!started && code === 127)
          reject(
            new Error(
              `${pythonPath} is not installed in this sandbox's image (command not found), so the python tool cannot run here; use the bash tool, or an image with python3`,
            ),
          );
        else if (!started)
          reject(new Error(`${pythonPath} exited during start (code ${code}, signal ${signal})`));
        if (this.#pending?.child === child) this.#pending.finish(null);
      });
    });
  }

  async #runNow(code: string, options: { timeoutMs: number; signal?: AbortSignal }): Promise<ExecToolResult> {
    const startedAt = performance.now();
    try {
      await this.start();
    } catch (error) {
      return errorResult(error instanceof Error ? error.message : String(error), startedAt);
    }
    const child = this.#child!;
    const output = new OutputBuffer(this.#options.maxOutputBytes);
    let timedOut = false;
    let note: string | undefined;
    const status = await new Promise<string | null>((resolve) => {
      let killTimer: NodeJS.Timeout | undefined;
      const interrupt = (reason: string) => {
        if (timedOut) return;
        timedOut = true;
        note = reason;
        const pid = this.#interpreterPid(child);
        if (pid !== undefined) {
          try {
            process.kill(pid, "SIGINT");
          } catch {
            // Already gone; the exit handler finishes the cell.
          }
        }
        killTimer = setTimeout(() => {
          note = `${reason}; the interpreter ignored KeyboardInterrupt and was restarted, so earlier variables are lost`;
          this.close();
        }, this.#options.interruptGraceMs);
      };
      const onAbort = () => interrupt("interrupted by the caller");
      const timer = setTimeout(
        () => interrupt(`cell timed out after ${options.timeoutMs} ms (KeyboardInterrupt)`),
        options.timeoutMs,
      );
      const nonce = createCommandNonce();
      this.#pending = {
        child,
        output,
        nonce,
        marker: null,
        token: `\n__RAAS_PY_${nonce}_`,
        finish: (cellStatus, finishNote) => {
          if (finishNote) note = finishNote;
          clearTimeout(timer);
          clearTimeout(killTimer);
          options.signal?.removeEventListener("abort", onAbort);
          this.#pending = undefined;
          resolve(cellStatus);
        },
      };
      if (options.signal?.aborted) onAbort();
      else options.signal?.addEventListener("abort", onAbort, { once: true });
      this.#cellsSent += 1;
      (child.stdio[3] as NodeJS.WritableStream).write(`code:${Buffer.from(code).toString("base64")}\n`);
    });
    const text = output.text();
    const suffix = note ? `${text.length > 0 && !text.endsWith("\n") ? "\n" : ""}[${note}]` : "";
    if (status === null && !note) note = "the interpreter exited; a new one starts on the next call";
    return {
      output: status === null && !suffix ? `${text}[${note}]` : text + suffix,
      exitCode: isSuccess(status) ? 0 : 1,
      isError: !isSuccess(status),
      truncated: output.isTruncated,
      timedOut,
      durationMs: performance.now() - startedAt,
      ...limitHitOf(text, null, output.isTruncated),
    };
  }

  /**
   * The driver says cell `n` is done: send the seal its end marker must carry. A message that
   * does not name the cell in progress, or repeats one, means a cell spoke on the control channel
   * itself: the interpreter is out of step, so it is replaced before anything else is reported.
   */
  #onCellDone(child: ChildProcess, line: string): void {
    if (child !== this.#child) return;
    const pending = this.#pending;
    const cell = /^done (\d+)$/.exec(line)?.[1];
    if (!pending || pending.marker || Number(cell) !== this.#cellsSent) {
      this.close();
      pending?.finish(null, DESYNC_NOTE);
      return;
    }
    pending.marker = new RegExp(`\\n?__RAAS_PY_${pending.nonce}_([a-z]+(?::[^\\n]*?)?)__\\n`);
    (child.stdio[3] as NodeJS.WritableStream).write(`seal:${pending.nonce}\n`);
    this.#onOutput("");
  }

  /** Pid of the interpreter itself (inside the jail, when there is one). */
  #interpreterPid(child: ChildProcess): number | undefined {
    if (child.pid === undefined) return undefined;
    return this.#options.isJailed ? jailedProgramPid(child.pid) : child.pid;
  }

  #onOutput(chunk: string): void {
    this.#text += chunk;
    const pending = this.#pending;
    if (!pending) return;
    const match = pending.marker?.exec(this.#text);
    if (!match) {
      // Keep only a tail that could still become the marker; the rest is plain output.
      const started = this.#text.lastIndexOf(pending.token);
      const keep =
        started >= 0 && !this.#text.includes("\n", started + 1)
          ? this.#text.length - started
          : partialPrefixLength(this.#text, pending.token);
      pending.output.append(this.#text.slice(0, this.#text.length - keep));
      this.#text = this.#text.slice(this.#text.length - keep);
      return;
    }
    pending.output.append(this.#text.slice(0, match.index));
    this.#text = this.#text.slice(match.index + match[0].length);
    pending.finish(match[1] ?? "error");
  }
}

const DESYNC_NOTE =
  "a cell wrote to the interpreter's control channel, so its reports cannot be trusted; the interpreter was restarted and earlier variables are lost";

/** `sys.exit()` / `sys.exit(0)` inside a cell ends the cell successfully, as in a script. */
function isSuccess(status: string | null): boolean {
  return status === "ok" || status === "exit:None" || status === "exit:0";
}
