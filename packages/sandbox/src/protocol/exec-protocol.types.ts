import type { SandboxExecResult, ToolResult } from "@raas/engine";

/**
 * Wire protocol between the host client and the execution server inside a sandbox.
 * One JSON object per line over a Unix domain socket; binary payloads are base64.
 * Requests carry a client-chosen `id`; responses echo it, so calls can overlap.
 */

/** Result of one tool call as produced by the execution server: the port's `ToolResult`, plus… */
export interface ExecToolResult extends ToolResult {
  /** Set when a sandbox limit visibly stopped the call (for health events). */
  limitHit?: "cpu" | "memory" | "processes" | "fileSize" | "output" | "time";
}

export interface ExecFileEntry {
  /** Path relative to the workspace root, `/`-separated. */
  path: string;
  type: "file" | "dir" | "symlink" | "other";
  sizeBytes: number;
}

export interface ExecHealth {
  pid: number;
  uptimeMs: number;
  /** Time from the server process's start to its socket listening, in ms (startup cost inside the sandbox). */
  listenedAfterMs: number;
  rssBytes: number;
  sessions: string[];
  /** Whether the agent's tools and handler commands run in the tool jail (out of the server's reach). */
  isolation: { toolJail: boolean; detail?: string };
}

/** A non-interactive command (the port's `Sandbox.exec`). */
export interface ExecCommandRequest {
  argv: string[];
  /** Relative to the workspace root, or absolute inside it. */
  cwd?: string;
  env?: Record<string, string>;
  /** Bytes for stdin, base64; stdin is closed after them. */
  stdinB64?: string;
  timeoutMs?: number;
  maxOutputBytes?: number;
  readOnlyWorkspace?: boolean;
  /** The port's `addressSpaceBytes`: the command's RLIMIT_AS raised to it. */
  addressSpaceBytes?: number;
}

/** The port's `SandboxExecResult`, as the server sends it. */
export type ExecCommandResult = SandboxExecResult;

/**
 * A long-lived process (the port's `Sandbox.spawn`). The request is answered when the process
 * ends; meanwhile the server sends events under its id: `started`, then `stdout` chunks.
 */
export interface SpawnProcessRequest {
  argv: string[];
  /** Relative to the workspace root, or absolute inside it. */
  cwd?: string;
  env?: Record<string, string>;
}

/** How a spawned process ended. */
export interface SpawnProcessResult {
  exitCode: number | null;
  signal: string | null;
  stderrTail: string;
}

export type ExecRequestBody =
  | { op: "health" }
  | { op: "tool"; tool: string; args: Record<string, unknown>; timeoutMs?: number }
  | ({ op: "exec" } & ExecCommandRequest)
  | ({ op: "spawn" } & SpawnProcessRequest)
  | { op: "stdin"; targetId: number; dataB64: string }
  | { op: "cancel"; targetId: number }
  | { op: "read_file"; path: string }
  | { op: "write_file"; path: string; dataB64: string }
  | { op: "list_files"; path: string; maxDepth?: number }
  | { op: "tar_download"; path: string }
  | { op: "tar_upload"; path: string; dataB64: string };

export type ExecRequest = ExecRequestBody & { id: number };

export interface ExecResultByOp {
  health: ExecHealth;
  tool: ExecToolResult;
  exec: ExecCommandResult;
  spawn: SpawnProcessResult;
  stdin: { sizeBytes: number };
  cancel: { cancelled: boolean };
  read_file: { dataB64: string };
  write_file: { sizeBytes: number };
  list_files: { entries: ExecFileEntry[] };
  tar_download: { dataB64: string };
  tar_upload: { sizeBytes: number };
}

export type ExecOp = ExecRequestBody["op"];

export interface ExecErrorBody {
  /** `bad_request` (malformed request or arguments), `not_found`, `forbidden` (outside the workspace), `internal`. */
  code: "bad_request" | "not_found" | "forbidden" | "internal";
  message: string;
}

export type ExecResponse =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: ExecErrorBody };

/** What a running request (a spawned process) reports before its response. */
export type ExecEvent = { id: number; event: "started" } | { id: number; event: "stdout"; dataB64: string };

/** Line the server prints on stdout once its socket is listening; the host waits for it. */
export const EXEC_READY_LINE = "RAAS_EXEC_READY";
