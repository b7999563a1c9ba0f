import type { TSandboxEvent, TSandboxState } from "@raas/shared";

/** Resource limits of one sandbox. Omitted fields use the runtime's defaults. */
export interface SandboxLimits {
  /** Wall-clock lifetime of the sandbox in ms. */
  wallTimeMs?: number;
  /** CPU seconds per process (RLIMIT_CPU). */
  cpuTimeSec?: number;
  /** Address-space / memory limit in bytes. */
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
}

export interface ToolResult {
  output: string;
  exitCode: number | null;
  isError: boolean;
  truncated: boolean;
  timedOut: boolean;
  durationMs: number;
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
export interface SandboxFileEntry {
  /** Path relative to the workspace root, `/`-separated. */
  path: string;
  type: "file" | "dir" | "symlink" | "other";
  sizeBytes: number;
}

/** One live sandbox. `close` is idempotent and kills the sandbox's own process tree by pid. */
export interface Sandbox {
  readonly id: string;
  readonly state: TSandboxState;
  runTool(name: string, args: Record<string, unknown>, options?: ToolCallOptions): Promise<ToolResult>;
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

/** Adapters: bubblewrap (default on Linux), singularity/apptainer (HPC), local (dev only). */
export interface SandboxRuntime {
  readonly name: string;
  /** Tools every sandbox of this runtime serves through `runTool`. */
  readonly toolSpecs?: readonly ToolSpec[];
  create(spec: SandboxSpec, signal?: AbortSignal): Promise<Sandbox>;
  onEvent(listener: SandboxEventListener): () => void;
  /** Closes every sandbox this runtime still holds. */
  closeAll(): Promise<void>;
}
