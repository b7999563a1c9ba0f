import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { rename } from "node:fs/promises";
import { join } from "node:path";
import type {
  Sandbox,
  SandboxExecOptions,
  SandboxExecResult,
  SandboxHostChannel,
  SandboxProcess,
  SandboxSpawnOptions,
  ToolCallOptions,
  ToolResult,
} from "@raas/engine";
import type { TSandboxState } from "@raas/shared";
import { sandboxFailure } from "@raas/shared";
import type { ExecFileEntry, ExecHealth, ExecRequestBody } from "../protocol/exec-protocol.types";
import { ExecClient } from "./exec-client";
import { callExecServer, execRequestBody, requestWithDeadline } from "./exec-request";
import { registerExitCleanup } from "./exit-cleanup";
import { waitForReadyLine } from "./launcher-ready";
import type { ManagedSandboxOptions } from "./managed-sandbox.types";
import {
  type ProcessTable,
  type SandboxProcessRef,
  SHARED_PROCESS_TABLE,
  sandboxProcessesIn,
} from "./process-table";
import { HOST_CHANNEL_SUBDIR, removeSandboxDirs } from "./sandbox-dirs";
import { isSandboxFailure } from "./sandbox-failure";
import { SandboxLimits } from "./sandbox-limits";
import { spawnSandboxProcess } from "./sandbox-process";
import { killSandboxProcesses, killSandboxSync, sharedTableKillTarget } from "./sandbox-teardown";
import { spawnLauncher } from "./spawn-launcher";
import { ToolSessions } from "./tool-sessions";

export type { LaunchPlan, ManagedSandboxOptions } from "./managed-sandbox.types";

/** How long a lost connection waits for the process's exit status before reporting a crash, ms. */
const EXIT_REPORT_WAIT_MS = 500;
/**
 * One sandbox as the host sees it: the launcher process, the socket client, state,
 * health events, limits enforced from outside, and cleanup by pid on every exit path.
 */
export class ManagedSandbox implements Sandbox {
  readonly id: string;
  #state: TSandboxState = "starting";
  readonly #options: ManagedSandboxOptions;
  #child: ChildProcess | undefined;
  #client: ExecClient | undefined;
  #stderrTail: () => string = () => "";
  #inflight = 0;
  #jobId: string | null;
  #closing: Promise<void> | undefined;
  #unregisterExit: (() => void) | undefined;
  #exited: Promise<void> = Promise.resolve();
  readonly #limits: SandboxLimits;

  constructor(options: ManagedSandboxOptions) {
    this.id = options.id;
    this.#options = options;
    this.#jobId = options.jobId;
    this.#limits = new SandboxLimits(options, {
      // Sampling: a table shared by every sandbox's watchdog, a moment old at most.
      processes: () => this.#processes(SHARED_PROCESS_TABLE.recent()),
      emit: (type, detail) => this.#emit(type, detail),
      close: (closeReason) => void this.#teardown("closed", closeReason),
    });
  }

  get state(): TSandboxState {
    return this.#state;
  }

  /** Host pid of the launcher (bwrap / apptainer / node), once started. */
  get hostPid(): number | undefined {
    return this.#child?.pid;
  }

  /** Whether the agent's tools run in the tool jail; known once the sandbox is ready. */
  get isolation(): ExecHealth["isolation"] | undefined {
    return this.#isolation;
  }

  #isolation: ExecHealth["isolation"] | undefined;

  /** Host pids of every process of this sandbox right now (the launcher's tree and cgroups). */
  processIds(): number[] {
    return this.#processes(SHARED_PROCESS_TABLE.fresh()).map((process) => process.pid);
  }

  #processes(table: ProcessTable): SandboxProcessRef[] {
    return sandboxProcessesIn(table, this.#child?.pid, this.#options.plan.cgroup?.pids() ?? []);
  }

  /** The run directory, shared with the host, and the bundled loopback forwarder inside. */
  hostChannel(): SandboxHostChannel {
    const { dirs, inside } = this.#options;
    return {
      hostDir: join(dirs.run, HOST_CHANNEL_SUBDIR),
      sandboxDir: `${inside.run}/${HOST_CHANNEL_SUBDIR}`,
      forwarderPath: `${inside.serverDir}/loopback-forwarder.cjs`,
    };
  }

  get workspaceHostPath(): string {
    return this.#options.dirs.workspace;
  }

  async start(signal?: AbortSignal): Promise<void> {
    const startedAt = performance.now();
    this.#emit("created", { hostDir: this.#options.dirs.root });
    const launched = spawnLauncher(this.#options.plan);
    const child = launched.child;
    this.#child = child;
    this.#stderrTail = launched.stderrTail;
    this.#exited = launched.exited;
    this.#unregisterExit = registerExitCleanup(() =>
      killSandboxSync(this.#killTarget(), this.#options.dirs.root),
    );
    child.once("exit", (code, exitSignal) => this.#onExit(code, exitSignal));
    try {
      await waitForReadyLine(child, {
        timeoutMs: this.#options.startTimeoutMs,
        stderrTail: this.#stderrTail,
        ...(signal ? { signal } : {}),
      });
      this.#client = await ExecClient.connect(this.#options.dirs.socket);
      // Mostly the process died: its exit status, coming soon (in either order), is the better report.
      this.#client.onDisconnect = () =>
        void Promise.race([
          this.#exited,
          new Promise((resolve) => setTimeout(resolve, EXIT_REPORT_WAIT_MS)),
        ]).then(() => this.#fail({ cause: "connection to the execution server lost" }));
      const health = await this.#client.request({ op: "health" });
      this.#state = "ready";
      this.#emit("ready", {
        readyMs: Math.round((performance.now() - startedAt) * 100) / 100,
        serverPid: health.pid,
        serverListenedAfterMs: health.listenedAfterMs,
        isolation: health.isolation,
      });
      this.#isolation = health.isolation;
      this.#limits.startWatchdog();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (signal?.aborted) {
        // Its job was cancelled meanwhile (dynamic sampling does this all the time): a
        // cancellation, not a failure of this host's sandboxes.
        this.#emit("start_cancelled", { error: message }, "closed");
        await this.#teardown("closed", "cancelled");
      } else {
        this.#emit("start_failed", { error: message }, "failed");
        await this.#teardown("failed", "start_failed", { error: message });
      }
      throw isSandboxFailure(error) ? error : sandboxFailure("start_failed", String(error), { cause: error });
    }
  }

  /**
   * Hands the sandbox to its user: records the job and starts the wall-time clock (a pooled
   * sandbox waits idle before this, and that wait must not count against its job).
   */
  assign(jobId: string | null, detail: Record<string, unknown> = {}): void {
    this.#jobId = jobId;
    if (Object.keys(detail).length > 0) this.#emit("assigned", detail);
    this.#limits.startWallClock();
  }

  /**
   * Runs a tool. Calls to one stateful session (bash, python) are queued here, one at a time,
   * so each call's hang clock starts when it is sent rather than while it waits its turn.
   */
  async runTool(
    name: string,
    args: Record<string, unknown>,
    options: ToolCallOptions = {},
  ): Promise<ToolResult> {
    try {
      return await this.#runToolQueued(name, args, options);
    } catch (error) {
      throw this.#limits.attributeToolFailure(error, name);
    }
  }

  async #runToolQueued(
    name: string,
    args: Record<string, unknown>,
    options: ToolCallOptions,
  ): Promise<ToolResult> {
    this.#requireClient();
    this.#inflight += 1;
    this.#state = "busy";
    try {
      return await this.#sessions.run(name, () => this.#sendTool(name, args, options));
    } finally {
      this.#inflight -= 1;
      if (this.#inflight === 0 && this.#state === "busy") this.#state = "ready";
    }
  }

  readonly #sessions = new ToolSessions();

  async #sendTool(
    name: string,
    args: Record<string, unknown>,
    options: ToolCallOptions,
  ): Promise<ToolResult> {
    const body = {
      op: "tool" as const,
      tool: name,
      args,
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    };
    const { limitHit, ...result } = await this.#limits.watchingHostDisk(() =>
      this.#requestWithDeadline(body, options.timeoutMs, options.signal),
    );
    this.#limits.reportToolCall(name, limitHit);
    return result;
  }

  /**
   * Runs `argv` as a non-interactive command through the server (no terminal, stdin from
   * `options.stdin` then EOF, killed whole at its time limit). Never goes through the agent's
   * tool sessions, so nothing the agent left in its shell or interpreter can affect it. A limit
   * closing the sandbox under it blames the policy (`blamePolicy`); the caller decides (a harness).
   */
  async exec(argv: readonly string[], options: SandboxExecOptions = {}): Promise<SandboxExecResult> {
    try {
      return await this.#exec(argv, options);
    } catch (error) {
      throw this.#limits.blameClosure(error);
    }
  }

  /** A long-lived process with piped stdio (`Sandbox.spawn`). */
  spawn(argv: readonly string[], options: SandboxSpawnOptions = {}): Promise<SandboxProcess> {
    return spawnSandboxProcess(this.#requireClient(), argv, options, (error) =>
      this.#limits.blameClosure(error),
    );
  }

  #exec(argv: readonly string[], options: SandboxExecOptions): Promise<SandboxExecResult> {
    const timeoutMs = options.timeoutMs ?? this.#options.defaultTimeoutMs;
    const body = execRequestBody(argv, options, timeoutMs);
    return this.#limits.watchingHostDisk(() => this.#requestWithDeadline(body, timeoutMs, options.signal));
  }

  /**
   * One request with a time limit the server enforces; if no answer comes within the limit +
   * `hangSlackMs`, the sandbox counts as hung (crashed). An abort cancels the request.
   */
  async #requestWithDeadline<Op extends "tool" | "exec">(
    body: Extract<ExecRequestBody, { op: Op }>,
    timeoutMs: number | undefined,
    signal: AbortSignal | undefined,
  ) {
    const client = this.#requireClient();
    const hangMs = (timeoutMs ?? this.#options.defaultTimeoutMs) + this.#options.hangSlackMs;
    try {
      return await requestWithDeadline(client, body, hangMs, signal);
    } catch (error) {
      if (isSandboxFailure(error) && error.failure.reason === "crashed") {
        await this.#fail({ cause: error.message });
      }
      throw error;
    }
  }

  async readFile(path: string): Promise<Uint8Array> {
    const { dataB64 } = await callExecServer(() => this.#requireClient().request({ op: "read_file", path }));
    return Buffer.from(dataB64, "base64");
  }

  async writeFile(path: string, data: string | Uint8Array): Promise<void> {
    const dataB64 = Buffer.from(data).toString("base64");
    await this.#limits.watchingHostDisk(() =>
      callExecServer(() => this.#requireClient().request({ op: "write_file", path, dataB64 })),
    );
  }

  async listFiles(path = ".", options: { maxDepth?: number } = {}): Promise<ExecFileEntry[]> {
    const request = { op: "list_files" as const, path, maxDepth: options.maxDepth ?? 1 };
    return (await callExecServer(() => this.#requireClient().request(request))).entries;
  }

  async downloadTar(path = "."): Promise<Uint8Array> {
    const { dataB64 } = await callExecServer(() =>
      this.#requireClient().request({ op: "tar_download", path }),
    );
    return Buffer.from(dataB64, "base64");
  }

  async uploadTar(data: Uint8Array, path = "."): Promise<void> {
    const dataB64 = Buffer.from(data).toString("base64");
    await this.#limits.watchingHostDisk(() =>
      callExecServer(() => this.#requireClient().request({ op: "tar_upload", path, dataB64 })),
    );
  }

  health(): Promise<ExecHealth> {
    return callExecServer(() => this.#requireClient().request({ op: "health" }));
  }

  close(): Promise<void> {
    return this.#teardown("closed", "closed");
  }

  /**
   * Closes the sandbox like `close`, but moves its workspace to `destination` (a path on the same
   * file system) once every process it ran is gone, instead of removing it. Throws when the
   * sandbox is not ready, or when a process of it outlived the teardown (it could still write).
   */
  async closeKeepingWorkspace(destination: string): Promise<void> {
    if (this.#state !== "ready") {
      throw sandboxFailure("closed", `sandbox ${this.id} is ${this.#state}; its workspace cannot be kept`);
    }
    this.#keepWorkspaceAt = destination;
    await this.#teardown("closed", "closed");
    if (this.#leftoverPids > 0) {
      await removeSandboxDirs(destination);
      throw sandboxFailure(
        "request_failed",
        `sandbox ${this.id} left ${this.#leftoverPids} process(es) alive; its workspace is not kept`,
      );
    }
    if (!existsSync(destination)) {
      throw sandboxFailure("closed", `sandbox ${this.id} ended before its workspace could be kept`);
    }
  }

  #keepWorkspaceAt: string | undefined;
  #leftoverPids = 0;

  #requireClient(): ExecClient {
    if (!this.#client || this.#state === "closing" || this.#state === "closed" || this.#state === "failed") {
      throw sandboxFailure("closed", `sandbox ${this.id} is ${this.#state}`);
    }
    return this.#client;
  }

  #onExit(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.#state === "starting") return; // start() reports it.
    void this.#fail({ cause: "sandbox process exited", exitCode: code, signal });
  }

  /** A sandbox that died or hung under us: one `crashed` event, then the usual cleanup. */
  #fail(detail: Record<string, unknown>): Promise<void> {
    if (this.#state !== "ready" && this.#state !== "busy") return this.#closing ?? Promise.resolve();
    this.#emit("crashed", { ...detail, stderrTail: this.#stderrTail().slice(-1_000) }, "failed");
    return this.#teardown("failed", "crashed");
  }

  #teardown(
    finalState: "closed" | "failed",
    reason: string,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    this.#closing ??= (async () => {
      this.#state = "closing";
      this.#limits.stop();
      this.#client?.close(sandboxFailure("closed", `sandbox ${this.id} closed (${reason})`));
      const target = this.#killTarget();
      this.#leftoverPids = await killSandboxProcesses({ ...target, exited: this.#exited });
      if (this.#keepWorkspaceAt !== undefined && this.#leftoverPids === 0 && finalState === "closed") {
        try {
          await rename(this.#options.dirs.workspace, this.#keepWorkspaceAt);
        } catch {
          // Reported by closeKeepingWorkspace: the destination does not exist.
        }
      }
      await removeSandboxDirs(this.#options.dirs.root);
      this.#unregisterExit?.();
      this.#state = finalState;
      this.#emit("closed", { reason, ...detail, leftoverPids: this.#leftoverPids });
      this.#options.onGone();
    })();
    return this.#closing;
  }

  #killTarget() {
    return sharedTableKillTarget((table) => this.#processes(table), this.#options.plan.cgroup);
  }

  #emit(type: string, detail: Record<string, unknown>, state: TSandboxState = this.#state): void {
    this.#options.emit({
      sandboxId: this.id,
      jobId: this.#jobId,
      type,
      state,
      detail,
      atMs: Date.now(),
    });
  }
}
