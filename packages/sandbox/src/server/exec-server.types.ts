import type { ToolJailConfig } from "./tool-jail";

/** Configuration of the execution server, passed by the host as base64 JSON in argv. */
export interface ExecServerConfig {
  /** Unix socket path to listen on, as seen inside the sandbox. */
  socketPath: string;
  /** Workspace root inside the sandbox; editor and file actions are confined to it. */
  workspaceRoot: string;
  /** Writable directory private to the server (command scripts). */
  scratchDir: string;
  /** python-driver.py as seen inside the sandbox. */
  pythonDriverPath: string;
  /** Environment given to the shell and the interpreter. */
  env: Record<string, string>;
  shellPath: string;
  /**
   * What runs `shellPath`: the host's loader with its libraries (`ld.so --library-path …`) when
   * the shell is the host's bash on an image without bash. Default none: run directly.
   */
  shellLauncher?: string[];
  pythonPath: string;
  /** Per-call timeout when the caller gives none, in ms. */
  defaultTimeoutMs: number;
  /** Silence before probing for a program waiting on terminal input, in ms. */
  noOutputTimeoutMs: number;
  /** Output budget per tool call in bytes. */
  maxOutputBytes: number;
  /** RLIMIT_CPU of tool processes in seconds; unset = unlimited. */
  cpuTimeSec?: number;
  /** RLIMIT_AS of tool processes in bytes; unset = unlimited. */
  memoryBytes?: number;
  /** RLIMIT_FSIZE of tool processes in bytes (largest file one may write); unset = unlimited. */
  fileSizeBytes?: number;
  /** Default bytes kept of each stream of a non-interactive command (`exec`). */
  execMaxOutputBytes: number;
  /**
   * Jail for tool sessions and commands (a nested user/pid/mount namespace), so nothing the
   * agent runs can see, signal or trace this server. Unset = same namespaces as the server.
   */
  jail?: ToolJailConfig;
  /** Start the shell after the first health answer, so the first bash call does not pay for it. */
  prestartBash: boolean;
}
