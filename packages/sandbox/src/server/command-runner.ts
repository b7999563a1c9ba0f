import { spawn } from "node:child_process";
import type { ExecCommandRequest, ExecCommandResult } from "../protocol/exec-protocol.types";
import { OutputBuffer } from "./output-buffer";
import { killProcessGroup, withAddressSpace, withUlimits } from "./process-support";
import { type JailCommandOptions, jailArgv, type ToolJailConfig } from "./tool-jail";
import { resolveInWorkspace } from "./workspace-path";

export interface CommandRunnerOptions {
  workspaceRoot: string;
  env: Record<string, string>;
  /** Jail for every command; without one a command runs in its own process group only. */
  jail?: ToolJailConfig;
  /** `sh` ulimit flags applied to the command (the sandbox's per-process limits). */
  ulimitFlags: readonly string[];
  defaultTimeoutMs: number;
  /** Default bytes kept of stdout and of stderr each. */
  defaultMaxOutputBytes: number;
}

/** How long stdout/stderr may stay open after the command exited (held by an escaped child), in ms. */
const DRAIN_GRACE_MS = 1_000;

/**
 * Non-interactive commands for handler steps and graders: stdin is the request's bytes and then
 * EOF, there is no terminal and no silence heuristic, and the only thing that ends a command early
 * is its own time limit (or a cancel), which kills it whole. Output is captured per stream with a
 * byte cap (head and tail kept).
 */
export class CommandRunner {
  readonly #options: CommandRunnerOptions;

  constructor(options: CommandRunnerOptions) {
    this.#options = options;
  }

  run(request: ExecCommandRequest, signal: AbortSignal): Promise<ExecCommandResult> {
    const startedAt = performance.now();
    const options = this.#options;
    if (
      !Array.isArray(request.argv) ||
      request.argv.length === 0 ||
      request.argv.some((a) => typeof a !== "string")
    ) {
      throw Object.assign(new Error("exec needs a non-empty `argv` array of strings"), { code: "EINVAL" });
    }
    const cwd = resolveInWorkspace(options.workspaceRoot, request.cwd ?? ".");
    const { addressSpaceBytes } = request;
    if (
      addressSpaceBytes !== undefined &&
      !(Number.isSafeInteger(addressSpaceBytes) && addressSpaceBytes > 0)
    ) {
      throw Object.assign(new Error("exec's `addressSpaceBytes` must be a positive integer"), {
        code: "EINVAL",
      });
    }
    const flags =
      addressSpaceBytes === undefined
        ? options.ulimitFlags
        : withAddressSpace(options.ulimitFlags, addressSpaceBytes);
    const inner = withUlimits(flags, request.argv);
    const jailOptions: JailCommandOptions = {
      cwd,
      workspaceRoot: options.workspaceRoot,
      interactive: false,
      ...(request.readOnlyWorkspace ? { readOnlyWorkspace: true } : {}),
    };
    const argv = options.jail ? jailArgv(options.jail, inner, jailOptions) : inner;
    const maxBytes = request.maxOutputBytes ?? options.defaultMaxOutputBytes;
    const timeoutMs = request.timeoutMs ?? options.defaultTimeoutMs;
    return new Promise((resolve, reject) => {
      const child = spawn(argv[0]!, argv.slice(1), {
        cwd,
        env: { ...options.env, ...request.env },
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
      });
      const stdout = new OutputBuffer(maxBytes);
      const stderr = new OutputBuffer(maxBytes);
      child.stdout.setEncoding("utf8");
      child.stderr.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => stdout.append(chunk));
      child.stderr.on("data", (chunk: string) => stderr.append(chunk));
      // A command that exits without reading its input (EPIPE) must not take the server down.
      for (const stream of [child.stdin, child.stdout, child.stderr]) stream.on("error", () => undefined);
      child.stdin.end(request.stdinB64 ? Buffer.from(request.stdinB64, "base64") : undefined);
      let timedOut = false;
      let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
      let drainTimer: NodeJS.Timeout | undefined;
      const kill = () => {
        if (child.pid !== undefined) killProcessGroup(child.pid);
      };
      const timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, timeoutMs);
      const onAbort = () => kill();
      signal.addEventListener("abort", onAbort, { once: true });
      child.once("error", (error) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        reject(
          Object.assign(new Error(`cannot start ${request.argv[0]}: ${error.message}`), { code: "EINVAL" }),
        );
      });
      child.once("exit", (code, exitSignal) => {
        exit = { code, signal: exitSignal };
        // Whatever still holds the pipes belongs to this command: kill its group and stop waiting.
        kill();
        drainTimer = setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
        }, DRAIN_GRACE_MS);
      });
      child.once("close", () => {
        clearTimeout(timer);
        clearTimeout(drainTimer);
        signal.removeEventListener("abort", onAbort);
        if (!exit) return;
        resolve({
          exitCode: exit.code,
          signal: exit.signal,
          stdout: stdout.text(),
          stderr: stderr.text(),
          timedOut,
          truncated: stdout.isTruncated || stderr.isTruncated,
          durationMs: performance.now() - startedAt,
        });
      });
    });
  }
}
