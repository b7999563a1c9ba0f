import { randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { IPty } from "node-pty";
import type { ExecToolResult } from "../protocol/exec-protocol.types";
import { errorResult } from "./error-result";
import { limitHitOf } from "./limit-detection";
import { OutputBuffer } from "./output-buffer";
import { isRunning, jailedProgramPid, killProcessGroup, loadNodePty } from "./process-support";
import { bashRcScript, commandLine, createCommandNonce, scanForMarker } from "./prompt-marker";
import { foregroundProcessGroup, isWaitingForTerminalInput, terminalThieves } from "./terminal-probe";

export interface BashSessionOptions {
  /** Working directory the shell starts in. */
  cwd: string;
  /** Environment of the shell (the session adds its prompt variables). */
  env: Record<string, string>;
  /** Directory for the per-command script file; writable by this server, readable by the shell. */
  scratchDir: string;
  /** Turns the shell's argv into the argv actually started (the tool jail). Default: unchanged. */
  wrapArgv?: (argv: string[]) => string[];
  /** The started process is a jail (bwrap), and the shell runs two levels below it. Default false. */
  isJailed?: boolean;
  /** Shell lines run once before the first command (e.g. `ulimit -t 60`). Default none. */
  initLines?: string[];
  /** Shell binary. Default `/bin/bash`. */
  shellPath?: string;
  /** What runs `shellPath` (the host's loader, for the host's bash on an image). Default none. */
  shellLauncher?: string[];
  /** Output budget per command in bytes. Default 64 KiB. */
  maxOutputBytes?: number;
  /** Silence after which the session checks for a program waiting on terminal input, in ms. Default 2000. */
  noOutputTimeoutMs?: number;
  /** Time given to Ctrl-C, then to the kill of the foreground group, in ms. Default 500. */
  interruptGraceMs?: number;
}

export interface BashRunOptions {
  /** Per-command timeout in ms. */
  timeoutMs: number;
  signal?: AbortSignal;
}

interface PendingRun {
  output: OutputBuffer;
  /** Nonces whose marker ends this run: the command's own, plus the shell's current one once interrupted. */
  nonces: string[];
  /** The interrupt had to SIGKILL the terminal's foreground process group. */
  groupKilled: boolean;
  onOutput: () => void;
  finish: (exitCode: number | null, note?: string) => void;
}

interface CommandOutcome {
  exitCode: number | null;
  timedOut: boolean;
  note?: string;
}

// Bracketed-paste mode switches; readline is off (`--noediting`) but programs may still emit them.
const BRACKETED_PASTE = new RegExp(`${String.fromCharCode(27)}\\[\\?2004[hl]`, "g");

/**
 * A persistent bash on a direct pseudo-terminal. Commands are written to a script file and
 * sourced, so multi-line input never meets the terminal's line discipline and state (cwd,
 * variables, functions, jobs) persists. Completion is the prompt: it renders a marker with a
 * per-command nonce and `$?` (see prompt-marker.ts), so no sleeping or polling is involved
 * and no command output can pass for the end of the command.
 */
export class BashSession {
  readonly #options: Required<BashSessionOptions>;
  readonly #nonce = randomBytes(6).toString("hex");
  /** The nonce the shell's prompt currently renders (the last one it recorded). */
  #shellNonce = "";
  #pty: IPty | undefined;
  #ready: Promise<void> | undefined;
  #carry = "";
  #pending: PendingRun | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: BashSessionOptions) {
    this.#options = {
      wrapArgv: (argv) => argv,
      isJailed: false,
      initLines: [],
      shellPath: "/bin/bash",
      shellLauncher: [],
      maxOutputBytes: 65_536,
      noOutputTimeoutMs: 2_000,
      interruptGraceMs: 500,
      ...options,
    };
  }

  get pid(): number | undefined {
    return this.#pty?.pid;
  }

  /** Pid of the shell itself (inside the jail, when there is one). */
  #shellPid(pty: IPty): number | undefined {
    return this.#options.isJailed ? jailedProgramPid(pty.pid) : pty.pid;
  }

  /** Starts the shell if it is not running; resolves when it is at its prompt. */
  start(): Promise<void> {
    this.#ready ??= this.#spawn().catch((error: unknown) => {
      // A failed start (e.g. forkpty refused under the process limit) must not stick: the
      // next command tries again once processes have been freed.
      this.close();
      throw error;
    });
    return this.#ready;
  }

  /** Runs one command; calls are serialized (one action at a time per session). */
  run(command: string, options: BashRunOptions): Promise<ExecToolResult> {
    const result = this.#queue.then(() => this.#runNow(command, options));
    this.#queue = result.catch(() => undefined);
    return result;
  }

  close(): void {
    const pty = this.#pty;
    this.#pty = undefined;
    this.#ready = undefined;
    if (pty) killProcessGroup(pty.pid);
  }

  async #spawn(): Promise<void> {
    const startNonce = createCommandNonce();
    const rcPath = join(this.#options.scratchDir, `bash-${this.#nonce}.rc`);
    writeFileSync(rcPath, bashRcScript(startNonce));
    this.#shellNonce = startNonce;
    const argv = this.#options.wrapArgv([
      ...this.#options.shellLauncher,
      this.#options.shellPath,
      "--noprofile",
      "--rcfile",
      rcPath,
      "--noediting",
      "-i",
    ]);
    const pty = loadNodePty().spawn(argv[0]!, argv.slice(1), {
      name: "dumb",
      cols: 200,
      rows: 50,
      cwd: this.#options.cwd,
      env: {
        ...this.#options.env,
        TERM: "dumb",
        HISTFILE: "/dev/null",
      },
    });
    this.#pty = pty;
    // Events of a replaced shell (killed after a failed interrupt) must not reach the new one.
    pty.onData((chunk) => {
      if (this.#pty === pty) this.#onData(chunk);
    });
    pty.onExit(({ exitCode, signal }) => {
      if (this.#pty !== pty) return;
      this.#pty = undefined;
      this.#ready = undefined;
      this.#pending?.finish(
        null,
        `the shell exited (code ${exitCode}, signal ${signal ?? 0}); a new shell starts on the next command and earlier state is lost`,
      );
    });
    // Swallow everything up to the first prompt (the rc file has switched echo off by then).
    const started = await this.#awaitPrompt(new OutputBuffer(4_096), [startNonce], 10_000);
    rmSync(rcPath, { force: true });
    if (started.exitCode === null) throw new Error(started.note ?? "the shell did not start");
    if (this.#options.initLines.length > 0) {
      await this.#exec(this.#options.initLines.join("\n"), new OutputBuffer(4_096), 10_000, undefined);
    }
  }

  async #runNow(command: string, options: BashRunOptions): Promise<ExecToolResult> {
    const startedAt = performance.now();
    try {
      await this.start();
    } catch (error) {
      const message = `the shell could not be started: ${error instanceof Error ? error.message : String(error)}`;
      const isProcessLimit = /forkpty|EAGAIN|Resource temporarily unavailable/.test(message);
      return errorResult(message, startedAt, isProcessLimit ? "processes" : undefined);
    }
    const output = new OutputBuffer(this.#options.maxOutputBytes);
    const outcome = await this.#exec(command, output, options.timeoutMs, options.signal);
    const text = output.text().replace(/^\n+/, "");
    return {
      output: outcome.note
        ? `${text}${text.length > 0 && !text.endsWith("\n") ? "\n" : ""}[${outcome.note}]`
        : text,
      exitCode: outcome.exitCode,
      isError: outcome.exitCode !== 0,
      truncated: output.isTruncated,
      timedOut: outcome.timedOut,
      durationMs: performance.now() - startedAt,
      ...limitHitOf(text, outcome.exitCode, output.isTruncated),
    };
  }

  #exec(
    command: string,
    output: OutputBuffer,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<CommandOutcome> {
    const pty = this.#pty;
    if (!pty) return Promise.resolve({ exitCode: null, timedOut: false, note: "the shell is not running" });
    const scriptPath = join(this.#options.scratchDir, `bash-${this.#nonce}.sh`);
    writeFileSync(scriptPath, `${command}\n`);
    const nonce = createCommandNonce();
    const done = this.#awaitPrompt(output, [nonce], timeoutMs, signal);
    // Only once every thief is dead: one killed while the line arrives could still swallow it.
    return this.#stopTerminalThieves(pty, output).then(() => {
      pty.write(commandLine(scriptPath, nonce));
      return done;
    });
  }

  #awaitPrompt(
    output: OutputBuffer,
    nonces: string[],
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<CommandOutcome> {
    return new Promise((resolve) => {
      let timedOut = false;
      let note: string | undefined;
      let silenceTimer: NodeJS.Timeout | undefined;
      const escalation: NodeJS.Timeout[] = [];
      const silenceMs = this.#options.noOutputTimeoutMs;
      const interrupt = (reason: string) => {
        if (timedOut) return;
        timedOut = true;
        note = reason;
        // Ctrl-C abandons the rest of the typed line, so the prompt keeps the shell's current
        // marker; that prompt now ends the run too (its status is the previous command's, so the
        // run reports 130, or 137 once the foreground group had to be killed).
        nonces.push(this.#shellNonce);
        clearTimeout(overallTimer);
        clearTimeout(silenceTimer);
        this.#escalate(escalation);
      };
      const armSilence = () => {
        clearTimeout(silenceTimer);
        silenceTimer = setTimeout(() => {
          const pid = this.#pty ? this.#shellPid(this.#pty) : undefined;
          if (pid !== undefined && isWaitingForTerminalInput(pid)) {
            interrupt(
              `no output for ${silenceMs} ms and the program is waiting for terminal input; interactive programs are not supported, so it was interrupted`,
            );
          } else armSilence();
        }, silenceMs);
      };
      const onAbort = () => interrupt("interrupted by the caller");
      const overallTimer = setTimeout(
        () => interrupt(`command timed out after ${timeoutMs} ms and was interrupted`),
        timeoutMs,
      );
      this.#pending = {
        output,
        nonces,
        groupKilled: false,
        onOutput: () => {
          if (!timedOut) armSilence();
        },
        finish: (exitCode, finishNote) => {
          clearTimeout(overallTimer);
          clearTimeout(silenceTimer);
          for (const timer of escalation) clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          this.#pending = undefined;
          this.#carry = "";
          const finalNote = finishNote ?? note;
          resolve({ exitCode, timedOut, ...(finalNote ? { note: finalNote } : {}) });
        },
      };
      armSilence();
      if (signal?.aborted) onAbort();
      else signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** Kills any other process waiting to read the line about to be typed (see terminalThieves). */
  async #stopTerminalThieves(pty: IPty, output: OutputBuffer): Promise<void> {
    const shell = this.#shellPid(pty);
    if (shell === undefined) return;
    const thieves = terminalThieves(pty.pid, shell);
    if (thieves.length === 0) return;
    for (const pid of thieves) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone already.
      }
    }
    for (let waited = 0; waited < 1_000 && thieves.some(isRunning); waited += 5) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    output.append(
      `[killed ${thieves.length} process(es) outside the shell's job control that were waiting to read the terminal]\n`,
    );
  }

  /** Ctrl-C; then SIGKILL of the foreground group; then the whole shell. */
  #escalate(timers: NodeJS.Timeout[]): void {
    const pty = this.#pty;
    if (!pty) return;
    pty.write("\x03");
    const grace = this.#options.interruptGraceMs;
    timers.push(
      setTimeout(() => {
        const shell = this.#shellPid(pty);
        const group = shell === undefined ? undefined : foregroundProcessGroup(shell);
        if (group !== undefined && group !== shell) {
          if (this.#pending) this.#pending.groupKilled = true;
          killProcessGroup(group);
        }
        timers.push(
          setTimeout(() => {
            if (this.#pty === pty) {
              this.close();
              this.#pending?.finish(
                null,
                "the shell did not recover from the interrupt and was restarted; earlier state is lost",
              );
            }
          }, grace),
        );
      }, grace),
    );
  }

  #onData(chunk: string): void {
    const pending = this.#pending;
    if (!pending) return; // Output between commands (finished background jobs) is dropped.
    pending.onOutput();
    const text = (this.#carry + chunk).replace(BRACKETED_PASTE, "").replace(/\r\n/g, "\n");
    const scan = scanForMarker(text, pending.nonces);
    if (scan.kind === "pending") {
      pending.output.append(text.slice(0, scan.safeLength));
      this.#carry = text.slice(scan.safeLength);
      return;
    }
    // The prompt is the last thing the shell writes before it reads the next line; anything
    // after it belongs to no command.
    pending.output.append(text.slice(0, scan.index));
    this.#shellNonce = scan.nonce;
    const isOwnMarker = scan.nonce === pending.nonces[0];
    pending.finish(isOwnMarker ? scan.exitCode : pending.groupKilled ? 137 : 130);
  }
}
