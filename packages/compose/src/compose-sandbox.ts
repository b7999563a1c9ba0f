import type { EngineLogger, SandboxLimits, SandboxRuntime } from "@raas/engine";
import { createSandboxRuntime, DEFAULT_IMAGE_CACHE_DIR, findExecutable, ImageCache } from "@raas/sandbox";

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
  /** Bytes one sandbox's workspace may occupy (bubblewrap only). Default 4 GiB (`DEFAULT_WORKSPACE_SIZE_BYTES`). */
  workspaceSizeBytes?: number;
  /**
   * Sandboxes kept started ahead of demand: a job's INIT, a group member's above all, then only
   * takes one instead of waiting for a cold start; each idle one costs one sandbox's memory.
   * `"auto"`: none until a group forks, then as many as the largest group since the pool was last
   * idle (at most 16), closed after 5 minutes without a take — nothing for a process that never
   * runs groups. A number: that many, filled in the background from the start. 0: off.
   * Default `"auto"`.
   */
  warmPoolSize?: number | "auto";
  /**
   * Where bubblewrap unpacks the OCI and SIF images sandboxes name (`dir`, default
   * `DEFAULT_IMAGE_CACHE_DIR`), shared by every process given the same directory, and how many
   * bytes of them it keeps (`maxBytes`, default the image cache's 20 GiB). Bubblewrap only.
   */
  imageCache?: { dir?: string; maxBytes?: number };
}

const SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/** What each runtime needs installed, for the start-up warning. */
const BINARIES: Record<NonNullable<SandboxConfig["runtime"]>, { names: string[]; hint: string } | null> = {
  bubblewrap: { names: ["bwrap"], hint: "apt-get install -y bubblewrap" },
  apptainer: { names: ["apptainer", "singularity"], hint: "install Apptainer (https://apptainer.org)" },
  local: null,
};

/** The sandbox runtime's binary is missing while handlers that need sandboxes are registered. */
export class SandboxUnavailableError extends Error {
  override readonly name = "SandboxUnavailableError";
}

/**
 * Builds the sandbox runtime. Creating one starts no sandbox, except the warm pool's (when
 * `warmPoolSize` is a number > 0), which fills in the background. A missing binary stops the server
 * (`SandboxUnavailableError`, with the install command) when `requireInstalled` — handlers that
 * need sandboxes are registered, and every job of theirs would fail in INIT; a server without
 * them (diagnostic jobs only) starts with a warning.
 */
export function composeSandboxRuntime(
  config: SandboxConfig,
  logger: EngineLogger,
  options: {
    requireInstalled?: boolean;
    /** This process's sandbox host id (its worker id), in each sandbox directory's owner file. */
    hostId?: string;
    /** The image cache to unpack into (`composeImageCache`), when the caller reports on it too. Default: one from `config.imageCache`. */
    imageCache?: ImageCache;
  } = {},
): SandboxRuntime {
  const kind = config.runtime ?? "bubblewrap";
  const searchPath = config.searchPath ?? SYSTEM_PATH;
  const needed = BINARIES[kind];
  const isInstalled = !needed || needed.names.some((name) => findExecutable(name, searchPath));
  if (needed && !isInstalled) {
    const missing = `sandbox runtime ${kind} is not installed (no ${needed.names.join(" or ")} on PATH=${searchPath}): ${needed.hint}`;
    if (options.requireInstalled) {
      throw new SandboxUnavailableError(
        `${missing}; without it every rollout would fail in INIT, so the server does not start (RAAS_SANDBOX_RUNTIME=local runs without isolation, for development only)`,
      );
    }
    logger.warn(
      { runtime: kind, looked: needed.names, searchPath },
      `${missing}; only jobs that need no sandbox can run`,
    );
  }
  if (config.workspaceSizeBytes !== undefined && kind !== "bubblewrap") {
    logger.warn(
      { runtime: kind, workspaceSizeBytes: config.workspaceSizeBytes },
      `sandbox runtime ${kind} does not bound the workspace size; only bubblewrap enforces workspaceSizeBytes`,
    );
  }
  if (config.imageCache !== undefined && kind !== "bubblewrap") {
    logger.warn(
      { runtime: kind, imageCache: config.imageCache },
      `sandbox runtime ${kind} does not use the image cache; only bubblewrap unpacks images into it`,
    );
  }
  const warmPoolSize = config.warmPoolSize ?? "auto";
  const runtime = createSandboxRuntime({
    kind,
    searchPath,
    ...(config.baseDir ? { baseDir: config.baseDir } : {}),
    ...(options.hostId !== undefined ? { hostId: options.hostId } : {}),
    ...(config.defaultLimits ? { defaultLimits: config.defaultLimits } : {}),
    ...(config.workspaceSizeBytes !== undefined ? { workspaceSizeBytes: config.workspaceSizeBytes } : {}),
    ...(kind === "bubblewrap" && options.imageCache !== undefined ? { imageCache: options.imageCache } : {}),
    ...(kind === "bubblewrap" && options.imageCache === undefined && config.imageCache !== undefined
      ? {
          imageCache: new ImageCache({
            dir: config.imageCache.dir ?? DEFAULT_IMAGE_CACHE_DIR,
            ...(config.imageCache.maxBytes !== undefined && { capBytes: config.imageCache.maxBytes }),
          }),
        }
      : {}),
    warmPoolSize,
    warn: (message) => logger.warn({ runtime: kind }, message),
  });
  // Without the binary nothing could start (the warning above says why).
  if (warmPoolSize !== "auto" && warmPoolSize > 0 && isInstalled) {
    runtime
      .warmUp()
      .catch((error: unknown) => logger.warn({ runtime: kind, error }, "filling the warm pool failed"));
  }
  return runtime;
}
