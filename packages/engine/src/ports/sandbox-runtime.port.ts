import type { TSandboxEvent, TSandboxState } from "@raas/shared";

/** Resource limits of one sandbox. Omitted fields use the runtime's defaults. */
export interface SandboxLimits {
  /** Wall-clock lifetime of the sandbox in ms. */
  wallTimeMs?: number;
  /** CPU seconds per process (RLIMIT_CPU). */
  cpuTimeSec?: number;
  /**
   * CPU seconds of the whole sandbox (every process it ever ran, the execution server included),
   * measured by the host every ~500 ms. Running over closes the sandbox as the policy's doing.
   * Unset = no whole-sandbox CPU bound (each process still has `cpuTimeSec`).
   */
  totalCpuSec?: number;
  /**
   * Memory in bytes: RLIMIT_AS of every tool process, and the whole sandbox's bound (+ the
   * server's headroom) — a memory cgroup where one is writable, else the host's watchdog over the
   * summed RSS of the sandbox's processes. Runtimes refuse to run without it unless told to.
   */
  memoryBytes?: number;
  /** Maximum number of processes. */
  maxProcesses?: number;
  /** Maximum bytes of tool output returned per call (the rest is cut with a note). */
  maxOutputBytes?: number;
}

export interface SandboxSpec {
  /** Job the sandbox belongs to, for events and logs. */
  jobId?: string;
  /** Root filesystem directory or image; the runtime's default when omitted. */
  image?: string;
  /** Files to place in the workspace before the sandbox starts (path → contents). */
  files?: Record<string, string | Uint8Array>;
  env?: Record<string, string>;
  limits?: SandboxLimits;
  /**
   * Host paths (files or directories) the sandbox sees read-only at `sandboxPath` (absolute, not
   * inside the workspace): a cache of installed programs shared by every sandbox of a host, e.g.
   * a harness CLI. Runtimes that cannot bind refuse the spec. Default none.
   */
  readOnlyBinds?: readonly SandboxReadOnlyBind[];
}

/** See `SandboxSpec.readOnlyBinds`. */
export interface SandboxReadOnlyBind {
  hostPath: string;
  sandboxPath: string;
}

export interface ToolResult {
  output: string;
  exitCode: number | null;
  isError: boolean;
  truncated: boolean;
  timedOut: boolean;
  durationMs: number;
  /**
   * A per-step reward the result carries (a tool server an environment brings may grade each
   * call, as veRL's tools do): recorded on the tool call, attached to the turn that made it.
   * Finite; absent when the tool gives none (the built-in tools never do).
   */
  reward?: number;
}

export interface ToolCallOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** A tool as the agent sees it: name, description and JSON-schema parameters. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12 subset) of the tool's arguments object. */
  parameters: Record<string, unknown>;
}

/** One entry of a workspace listing. */
interface SandboxFileEntry {
  /** Path relative to the workspace root, `/`-separated. */
  path: string;
  type: "file" | "dir" | "symlink" | "other";
  sizeBytes: number;
}

/**
 * A non-interactive command (INIT/EVAL steps, graders, hidden tests): no terminal, stdin fed from
 * `stdin` and then closed (or empty), never interrupted for being silent, killed whole (its own
 * process group, and its own pid namespace where the runtime has one) at its time limit.
 */
export interface SandboxExecOptions {
  /** Working directory: relative to the workspace root, or absolute inside it. Default the workspace root. */
  cwd?: string;
  /** Variables added to the sandbox's environment for this command. */
  env?: Record<string, string>;
  /** Bytes written to the command's stdin, which is then closed. Default: empty stdin. */
  stdin?: string | Uint8Array;
  /** Time limit in ms; on expiry every process the command started is killed. Default 60_000. */
  timeoutMs?: number;
  /** Bytes kept of stdout and of stderr each (head and tail, a note in the middle). Default 16 MiB. */
  maxOutputBytes?: number;
  /** Run with the workspace mounted read-only, where the runtime can (graders of untrusted code). */
  readOnlyWorkspace?: boolean;
  /**
   * Raise this command's address-space limit (RLIMIT_AS, set from the sandbox's `memoryBytes`) to
   * this many bytes: for runtimes that reserve large virtual ranges up front (JavaScriptCore, as
   * in Bun). Never lowers it. The sandbox's memory bound (cgroup or watchdog) still holds.
   */
  addressSpaceBytes?: number;
  signal?: AbortSignal;
}

export interface SandboxExecResult {
  /** Exit code; null when a signal ended the command. */
  exitCode: number | null;
  /** Name of the signal that ended the command (`SIGKILL`), or null. */
  signal: string | null;
  stdout: string;
  stderr: string;
  /** The time limit ended the command. */
  timedOut: boolean;
  /** stdout or stderr was cut to `maxOutputBytes`. */
  truncated: boolean;
  durationMs: number;
}

/**
 * A long-lived command (`Sandbox.spawn`) whose stdin and stdout are streams: a tool server the
 * environment brings. It runs like `exec`'s commands (its own jail where the runtime has one, out
 * of the agent's tools' reach; the sandbox's per-process limits) but has no time limit: it ends
 * when it exits, when `kill` is called, or with its sandbox.
 */
export interface SandboxSpawnOptions {
  /** Working directory: relative to the workspace root, or absolute inside it. Default the workspace root. */
  cwd?: string;
  /** Variables added to the sandbox's environment for this command. */
  env?: Record<string, string>;
  /** Aborting kills the process. */
  signal?: AbortSignal;
}

/** How a spawned process ended. */
export interface SandboxProcessExit {
  /** Exit code; null when a signal ended it or the sandbox failed first. */
  exitCode: number | null;
  /** Name of the signal that ended it (`SIGKILL`), or null. */
  signal: string | null;
  /** The last bytes (up to 64 KiB) the process wrote to stderr. */
  stderrTail: string;
  /** The sandbox failed (closed, crashed) before the process's own exit was seen. */
  sandboxError?: unknown;
}

/** A process started by `Sandbox.spawn`. */
export interface SandboxProcess {
  /** Writes to the process's stdin; rejects once it has ended. */
  write(data: string | Uint8Array): Promise<void>;
  /** Listens to the process's stdout, chunk by chunk, in order, from its start. */
  onStdout(listener: (chunk: Uint8Array) => void): void;
  /** Resolves (never rejects) when the process has ended. */
  readonly exited: Promise<SandboxProcessExit>;
  /** Kills the process and everything it started. Idempotent. */
  kill(): Promise<void>;
}

/** One live sandbox. `close` is idempotent and kills the sandbox's own process tree by pid. */
/** See `Sandbox.hostChannel`. */
export interface SandboxHostChannel {
  /** The directory on the host. */
  hostDir: string;
  /** The same directory inside the sandbox. */
  sandboxDir: string;
  /** Path inside the sandbox of the loopback forwarder (a CommonJS file for `node`). */
  forwarderPath: string;
}

export interface Sandbox {
  readonly id: string;
  readonly state: TSandboxState;
  /**
   * A directory the host and the sandbox share, for Unix sockets the host listens on (the
   * inference gateway's bridge), and the bundled loopback forwarder that reaches them from inside
   * (`node <forwarderPath> --socket <sandboxDir>/<name> -- <command…>`). Absent where the runtime
   * offers none.
   */
  hostChannel?(): SandboxHostChannel;
  runTool(name: string, args: Record<string, unknown>, options?: ToolCallOptions): Promise<ToolResult>;
  /**
   * Runs `argv` (no shell: pass `["bash", "-c", script]` for one) as a non-interactive command,
   * apart from the tool sessions: nothing the agent's shell or interpreter did (functions, traps,
   * background processes) can see or change it. For handler steps and graders, never for the agent.
   */
  exec(argv: readonly string[], options?: SandboxExecOptions): Promise<SandboxExecResult>;
  /**
   * Starts `argv` (no shell) as a long-lived process with piped stdin and stdout (see
   * `SandboxProcess`); resolves once it runs. For servers the environment brings, never for the
   * agent. Absent where the runtime offers none.
   */
  spawn?(argv: readonly string[], options?: SandboxSpawnOptions): Promise<SandboxProcess>;
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: string | Uint8Array): Promise<void>;
  /** Lists the workspace below `path` (default the root), `maxDepth` levels deep (default 1). */
  listFiles?(path?: string, options?: { maxDepth?: number }): Promise<SandboxFileEntry[]>;
  /** A gzip tar of the workspace below `path` (default the root). */
  downloadTar?(path?: string): Promise<Uint8Array>;
  /** Extracts a gzip tar into the workspace below `path` (default the root). */
  uploadTar?(data: Uint8Array, path?: string): Promise<void>;
  close(): Promise<void>;
}

export type SandboxEventListener = (event: TSandboxEvent) => void;

/**
 * Which whole-sandbox and per-process limits a runtime enforces, and by what mechanism, for the
 * runtime's default limits. `null` = not bounded (or not known to the runtime).
 */
export interface SandboxLimitsInForce {
  runtime: string;
  /** Processes of the whole sandbox: a cgroup `pids` limit, or RLIMIT_NPROC per user namespace. */
  processes: { enforcedBy: "cgroup" | "rlimit" | "none"; max: number | null };
  /** Whole-sandbox memory: a memory cgroup, or the host's watchdog over summed RSS. */
  memory: { enforcedBy: "cgroup" | "watchdog" | "none"; bytes: number | null };
  /** Whole-sandbox CPU seconds (`totalCpuSec`). */
  cpuTotal: { enforcedBy: "watchdog" | "none"; seconds: number | null };
  /** Workspace size in bytes (a polled walk of the workspace). */
  disk: { enforcedBy: "watchdog" | "none"; bytes: number | null };
  /** rlimits of each tool process: RLIMIT_CPU, RLIMIT_AS, RLIMIT_FSIZE. */
  perProcess: { cpuSec: number | null; addressSpaceBytes: number | null; fileBytes: number | null };
  /** Size cap of the sandbox's /dev/shm and /tmp in bytes. */
  shmBytes: number | null;
  tmpBytes: number | null;
  /** Whether tools run in a nested jail out of the execution server's reach (`unknown` until a sandbox started). */
  toolJail: "on" | "off" | "unknown";
}

/**
 * A workspace prepared once (a GRPO group's INIT) and kept where no sandbox can reach it: it is
 * bound into none, so the policy's code can neither read nor change it. Sandboxes started from it
 * (`SandboxRuntime.createFrom`) each get a private copy (a reflink clone where the file system
 * has them, else a plain copy), so a member's writes, deletions and mode changes stay its own.
 */
export interface SandboxTemplate {
  readonly id: string;
  /** Removes the template's files. Idempotent; sandboxes made from it keep their own copies. */
  remove(): Promise<void>;
}

/** A template and what `prepare` returned while building it. */
export interface PreparedSandboxTemplate<T> {
  template: SandboxTemplate;
  value: T;
  /**
   * With `keepSandbox`: the sandbox that ran `prepare`, still running, its workspace the one the
   * template was copied from (the caller owns it and closes it). Absent otherwise.
   */
  sandbox?: Sandbox;
}

/** How `SandboxRuntime.prepareTemplate` ends. */
export interface PrepareTemplateOptions {
  /**
   * Keep the sandbox that ran `prepare` running and return it (one group member's own sandbox:
   * no teardown and no second start): the template is a copy of its workspace taken once
   * `prepare` returned, before anything else runs in it. Processes `prepare` left running stay
   * in that sandbox only; the template is bound into no sandbox either way. Default false (the
   * sandbox is closed and its workspace kept as the template).
   */
  keepSandbox?: boolean;
}

/** Adapters: bubblewrap (default on Linux), singularity/apptainer (HPC), local (dev only). */
/**
 * What the store says of a sandbox host (a worker id): `live` (active or draining), `gone` (lost
 * or stopped), `unknown` (no record of it, or the store cannot answer).
 */
export type SandboxHostStatus = "live" | "gone" | "unknown";

export interface SandboxRuntime {
  readonly name: string;
  /** Tools every sandbox of this runtime serves through `runTool`. */
  readonly toolSpecs?: readonly ToolSpec[];
  create(spec: SandboxSpec, signal?: AbortSignal): Promise<Sandbox>;
  onEvent(listener: SandboxEventListener): () => void;
  /** Closes every sandbox this runtime still holds. */
  closeAll(): Promise<void>;
  /**
   * Removes the directories in this runtime's base directory whose host is dead: a process of this
   * node that is gone (unless `hostStatus` says its host is live), or a host of another node
   * sharing the directory that `hostStatus` says is gone. Never this process's own. `baseDirs`:
   * other base directories to sweep the same way (those a dead host's records name, which no live
   * process may share). Resolves to the directories removed.
   */
  reapStaleDirs?(
    hostStatus: (hostId: string) => Promise<SandboxHostStatus>,
    options?: { baseDirs?: readonly string[] },
  ): Promise<string[]>;
  /** The limits in force for sandboxes made with the runtime's defaults (for health reports). */
  limitsInForce?(): SandboxLimitsInForce;
  /**
   * Starts a sandbox from `spec`, runs `prepare` in it (a group's INIT), closes it (every process
   * it ran is gone before its workspace is kept, so nothing changes the template afterwards) and
   * keeps its workspace as a template (or, with `keepSandbox`, keeps a copy of it and returns the
   * sandbox still running). When `prepare` throws, the sandbox is closed, nothing is kept and the
   * error propagates as it is.
   */
  prepareTemplate?<T>(
    spec: SandboxSpec,
    prepare: (sandbox: Sandbox) => Promise<T>,
    signal?: AbortSignal,
    options?: PrepareTemplateOptions,
  ): Promise<PreparedSandboxTemplate<T>>;
  /**
   * Starts a sandbox like `create`, its workspace a private copy of `template`'s (then
   * `spec.files`). Given a promise, the sandbox starts at once and is filled when the template is
   * ready (a member's start overlaps its group's INIT); when the promise rejects, the sandbox is
   * closed and the rejection propagates as it is.
   */
  createFrom?(
    template: SandboxTemplate | PromiseLike<SandboxTemplate>,
    spec: SandboxSpec,
    signal?: AbortSignal,
  ): Promise<Sandbox>;
}
