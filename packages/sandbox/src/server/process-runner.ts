import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import type { SpawnProcessRequest, SpawnProcessResult } from "../protocol/exec-protocol.types";
import type { CommandRunnerOptions } from "./command-runner";
import { OutputBuffer } from "./output-buffer";
import { killProcessGroup, withUlimits } from "./process-support";
import { jailArgv } from "./tool-jail";
import { resolveInWorkspace } from "./workspace-path";

/** Bytes of a spawned process's stderr kept for its exit report (the tail matters most). */
const STDERR_TAIL_BYTES = 64 * 1024;

/** One running process, addressed by the request id that started it. */
interface RunningProcess {
  child: ChildProcessWithoutNullStreams;
}

/**
 * Long-lived processes with piped stdin and stdout (`Sandbox.spawn`): tool servers the
 * environment brings. Jailed and limited like `exec`'s commands, each in its own process group
 * (and jail), with no time limit: a process ends by itself, by a cancel of its request, or with
 * the sandbox. Its stdout goes to `onStdout` as it comes; stderr keeps its tail for the report.
 */
export class ProcessRunner {
  readonly #options: CommandRunnerOptions;
  readonly #running = new Map<number, RunningProcess>();

  constructor(options: CommandRunnerOptions) {
    this.#options = options;
  }

  /**
   * Starts `request.argv` as process `id`; `onStarted` once it runs, `onStdout` per chunk.
   * Resolves when it ended (its exit code, signal and stderr tail).
   */
  run(
    id: number,
    request: SpawnProcessRequest,
    signal: AbortSignal,
    events: { onStarted: () => void; onStdout: (chunk: Buffer) => void },
  ): Promise<SpawnProcessResult> {
    const options = this.#options;
    if (
      !Array.isArray(request.argv) ||
      request.argv.length === 0 ||
      request.argv.some((a) => typeof a !== "string")
    )
      throw Object.assign(new Error("spawn needs a non-empty `argv` array of strings"), { code: "EINVAL" });
    const cwd = resolveInWorkspace(options.workspaceRoot, request.cwd ?? ".");
    const inner = withUlimits(options.ulimitFlags, request.argv);
    const argv = options.jail
      ? jailArgv(options.jail, inner, { cwd, workspaceRoot: options.workspaceRoot, interactive: false })
      : inner;
    return new Promise((resolve, reject) => {
      const child = spawn(argv[0]!, argv.slice(1), {
        cwd,
        env: { ...options.env, ...request.env },
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
      });
      const stderr = new OutputBuffer(STDERR_TAIL_BYTES);
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (chunk: string) => stderr.append(chunk));
      child.stdout.on("data", (chunk: Buffer) => events.onStdout(chunk));
      for (const stream of [child.stdin, child.stdout, child.stderr]) stream.on("error", () => undefined);
      const kill = () => {
        if (child.pid !== undefined) killProcessGroup(child.pid);
      };
      signal.addEventListener("abort", kill, { once: true });
      child.once("spawn", () => {
        this.#running.set(id, { child });
        events.onStarted();
      });
      child.once("error", (error) => {
        signal.removeEventListener("abort", kill);
        this.#running.delete(id);
        reject(
          Object.assign(new Error(`cannot start ${request.argv[0]}: ${error.message}`), { code: "EINVAL" }),
        );
      });
      child.once("exit", (code, exitSignal) => {
        this.#running.delete(id);
        signal.removeEventListener("abort", kill);
        // Whatever it left behind in its group (or jail) goes with it.
        kill();
        // Stdout may still hold the last bytes: report the exit once the pipes are drained.
        const report = () => resolve({ exitCode: code, signal: exitSignal, stderrTail: stderr.text() });
        if (child.stdout.readableEnded || child.stdout.destroyed) report();
        else {
          const timer = setTimeout(() => child.stdout.destroy(), 1_000);
          child.stdout.once("close", () => {
            clearTimeout(timer);
            report();
          });
        }
      });
    });
  }

  /** Writes to process `id`'s stdin; throws when it is not running. */
  write(id: number, data: Buffer): Promise<{ sizeBytes: number }> {
    const running = this.#running.get(id);
    if (!running || running.child.stdin.destroyed)
      return Promise.reject(Object.assign(new Error(`process ${id} is not running`), { code: "ENOENT" }));
    return new Promise((resolve, reject) => {
      running.child.stdin.write(data, (error) =>
        error ? reject(Object.assign(error, { code: "ENOENT" })) : resolve({ sizeBytes: data.length }),
      );
    });
  }

  /** Kills every process still running (the server is closing). */
  close(): void {
    for (const { child } of this.#running.values()) if (child.pid !== undefined) killProcessGroup(child.pid);
    this.#running.clear();
  }
}
