import type { EngineLogger, SandboxLimits, SandboxRuntime } from "@raas/engine";
import { createSandboxRuntime, findExecutable } from "@raas/sandbox";

/** Sandbox runtime of the agent handlers. */
export interface SandboxConfig {
  /** `bubblewrap` (default; rootless, no network), `apptainer` (HPC), `local` (no isolation, development only). */
  runtime?: "bubblewrap" | "apptainer" | "local";
  /** Colon-separated directories where bwrap / apptainer / prlimit are looked up (the app's PATH). */
  searchPath?: string;
  /** Host directory for per-sandbox directories. Default `<tmpdir>/raas-sandboxes`. */
  baseDir?: string;
  /**
   * Limits of sandboxes whose spec omits them, field by field over the runtime's own defaults
   * (e.g. `{ totalCpuSec }`); what `system.health` reports as in force. Default: the runtime's.
   */
  defaultLimits?: SandboxLimits;
  /** Bytes one sandbox's workspace may occupy (bubblewrap only). Default none. */
  workspaceSizeBytes?: number;
}

const SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** What each runtime needs installed, for the start-up warning. */
const BINARIES: Record<NonNullable<SandboxConfig["runtime"]>, { names: string[]; hint: string } | null> = {
  bubblewrap: { names: ["bwrap"], hint: "apt-get install -y bubblewrap" },
  apptainer: { names: ["apptainer", "singularity"], hint: "install Apptainer (https://apptainer.org)" },
  local: null,
};

/**
 * Builds the sandbox runtime. Creating one starts no sandbox; a missing binary is a warning at
 * start (jobs that need a sandbox then fail as `sandbox`), so servers that only run diagnostic
 * jobs still start on machines without bubblewrap.
 */
export function composeSandboxRuntime(config: SandboxConfig, logger: EngineLogger): SandboxRuntime {
  const kind = config.runtime ?? "bubblewrap";
  const searchPath = config.searchPath ?? SYSTEM_PATH;
  const needed = BINARIES[kind];
  if (needed && !needed.names.some((name) => findExecutable(name, searchPath))) {
    logger.warn(
      { runtime: kind, looked: needed.names, searchPath },
      `sandbox runtime ${kind} is not installed (${needed.hint}); jobs that need a sandbox will fail until it is, or set RAAS_SANDBOX_RUNTIME=local for development`,
    );
  }
  if (config.workspaceSizeBytes !== undefined && kind !== "bubblewrap") {
    logger.warn(
      { runtime: kind, workspaceSizeBytes: config.workspaceSizeBytes },
      `sandbox runtime ${kind} does not bound the workspace size; only bubblewrap enforces workspaceSizeBytes`,
    );
  }
  return createSandboxRuntime({
    kind,
    searchPath,
    ...(config.baseDir ? { baseDir: config.baseDir } : {}),
    ...(config.defaultLimits ? { defaultLimits: config.defaultLimits } : {}),
    ...(config.workspaceSizeBytes !== undefined ? { workspaceSizeBytes: config.workspaceSizeBytes } : {}),
    warn: (message) => logger.warn({ runtime: kind }, message),
  });
}
