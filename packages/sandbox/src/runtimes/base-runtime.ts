import { randomBytes } from "node:crypto";
import { mkdirSync } from "node:fs";
import { chmod, mkdir, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import type {
  PreparedSandboxTemplate,
  PrepareTemplateOptions,
  Sandbox,
  SandboxEventListener,
  SandboxHostStatus,
  SandboxLimits,
  SandboxLimitsInForce,
  SandboxRuntime,
  SandboxSpec,
  SandboxTemplate,
  ToolSpec,
} from "@raas/engine";
import type { TSandboxEvent } from "@raas/shared";
import { sandboxFailure } from "@raas/shared";
import { HostDiskMonitor } from "../host/host-disk-monitor";
import { type LaunchPlan, ManagedSandbox } from "../host/managed-sandbox";
import {
  createSandboxDirs,
  removeSandboxDirs,
  type SandboxDirs,
  writeWorkspaceFiles,
} from "../host/sandbox-dirs";
import { defaultExecBinDir, ensureServerBundle, type ServerBundle } from "../host/server-bundle";
import { reapDeadHostSandboxDirs, reapStaleSandboxDirs } from "../host/stale-sandbox-dirs";
import type { WatchdogLimits } from "../host/watchdog-decision";
import {
  cloneWorkspace,
  createTemplateRoot,
  templateWorkspace,
  WorkspaceTemplate,
} from "../host/workspace-template";
import type { ExecServerConfig } from "../server/exec-server.types";
import type { ToolJailConfig } from "../server/tool-jail";
import { SANDBOX_TOOL_SPECS } from "../tools/tool-specs";
import { describeLimitsInForce, type RuntimeLimitFacts } from "./limits-in-force";
import {
  DEFAULT_LIMITS,
  mergeLimits,
  SANDBOX_MEMORY_HEADROOM_BYTES,
  SANDBOX_PATH,
  type SandboxRuntimeOptions,
} from "./runtime-options";
import { isPoolable, type WarmPoolSizing } from "./warm-pool";
import { WarmPools } from "./warm-pools";

export type { RuntimeLimitFacts };

/** Paths of the sandbox as the execution server sees them from inside. */
export interface InsideLayout {
  workspace: string;
  run: string;
  pythonDriver: string;
  /** The agent's shell; default the runtime's `shellPath` option. */
  shellPath?: string;
  /** What runs `shellPath` (the host's loader and libraries, for the host's bash on an image). */
  shellLauncher?: string[];
  /** The tool jail, where the runtime can build one (see server/tool-jail.ts). */
  jail?: ToolJailConfig;
}

/** A spec whose `image` is a root filesystem the runtime can run on, held until `release`. */
export interface ImageLeaseForSpec {
  spec: SandboxSpec;
  release(): Promise<void>;
}

/** Bytes kept of each stream of a non-interactive command by default (16 MiB). */
const EXEC_MAX_OUTPUT_BYTES = 16 * 1024 ** 2;

const DIR_PREFIX = "sbx-";

/** Fills a new sandbox's workspace (host path); skips its work once `cancelled` is aborted. */
type WorkspaceFill = (workspace: string, cancelled: AbortSignal) => Promise<void>;

/**
 * What every runtime shares: sandbox ids and directories, the server bundle, events,
 * bookkeeping for closeAll. A concrete runtime says how to launch the server (a LaunchPlan)
 * and where things are inside its sandbox.
 */
export abstract class BaseRuntime implements SandboxRuntime {
  abstract readonly name: string;
  readonly toolSpecs: readonly ToolSpec[] = SANDBOX_TOOL_SPECS;
  protected readonly options: Required<Omit<SandboxRuntimeOptions, "defaultLimits" | "hostId">> & {
    defaultLimits: SandboxLimits;
  };
  readonly #hostId: string | null;
  readonly #listeners = new Set<SandboxEventListener>();
  readonly #sandboxes = new Set<ManagedSandbox>();
  readonly #templates = new Set<WorkspaceTemplate>();
  readonly #pools: WarmPools | undefined;
  /** The disk holding every sandbox's directories, watched while their calls run. */
  readonly #hostDisk: HostDiskMonitor;
  /** Isolation the most recently started sandbox reported (tool jail in force or not). */
  protected lastIsolation: ManagedSandbox["isolation"];

  constructor(options: SandboxRuntimeOptions = {}) {
    this.options = {
      baseDir: join(tmpdir(), "raas-sandboxes"),
      execBinDir: defaultExecBinDir(),
      startTimeoutMs: 15_000,
      defaultToolTimeoutMs: 60_000,
      noOutputTimeoutMs: 2_000,
      hangSlackMs: 10_000,
      pythonPath: "python3",
      shellPath: "/bin/bash",
      warmPoolSize: 0,
      warmPoolMaxSize: 16,
      warmPoolIdleMs: 300_000,
      warn: (message) => console.warn(message),
      allowUnboundedMemory: false,
      ...options,
      // A field given as undefined here unsets the default (e.g. memoryBytes, with the opt-in below).
      defaultLimits: { ...DEFAULT_LIMITS, ...options.defaultLimits },
    };
    if (this.options.defaultLimits.memoryBytes === undefined && !this.options.allowUnboundedMemory) {
      throw new Error(
        "refusing to run sandboxes without a memory bound: defaultLimits.memoryBytes is unset, so no memory cgroup and no memory watchdog would limit a sandbox; set defaultLimits.memoryBytes, or pass allowUnboundedMemory: true to accept that a sandbox may take all of the host's memory",
      );
    }
    const { warmPoolSize, warmPoolMaxSize, warmPoolIdleMs } = this.options;
    if (warmPoolSize === "auto" || warmPoolSize > 0) {
      const sizing: WarmPoolSizing =
        warmPoolSize === "auto"
          ? { kind: "auto", maxSize: warmPoolMaxSize, idleMs: warmPoolIdleMs }
          : { kind: "fixed", size: warmPoolSize };
      this.#pools = new WarmPools(sizing, (image) => this.#createCold(image === undefined ? {} : { image }));
    }
    this.#hostId = options.hostId ?? null;
    mkdirSync(this.options.baseDir, { recursive: true, mode: 0o755 });
    this.#hostDisk = new HostDiskMonitor(this.options.baseDir);
    reapStaleSandboxDirs(this.options.baseDir, DIR_PREFIX);
  }

  async reapStaleDirs(
    hostStatus: (hostId: string) => Promise<SandboxHostStatus>,
    options: { baseDirs?: readonly string[] } = {},
  ): Promise<string[]> {
    const baseDirs = new Set([this.options.baseDir, ...(options.baseDirs ?? []).filter(isAbsolute)]);
    const removed: string[] = [];
    for (const baseDir of baseDirs) {
      removed.push(...(await reapDeadHostSandboxDirs(baseDir, DIR_PREFIX, hostStatus)));
    }
    return removed;
  }

  /** Host uid/gid the sandbox runs as, when different from this process's. */
  protected abstract sandboxOwner(): { uid: number; gid: number } | undefined;
  protected abstract insideLayout(dirs: SandboxDirs, bundle: ServerBundle, spec: SandboxSpec): InsideLayout;
  protected abstract launchPlan(args: {
    id: string;
    spec: SandboxSpec;
    limits: SandboxLimits;
    dirs: SandboxDirs;
    bundle: ServerBundle;
    inside: InsideLayout;
    encodedConfig: string;
  }): LaunchPlan | Promise<LaunchPlan>;

  /** Facts about this runtime's enforcement, for {@link BaseRuntime.limitsInForce}. */
  protected abstract limitFacts(): RuntimeLimitFacts;

  /** Workspace size bound in bytes (the watchdog's disk limit and RLIMIT_FSIZE); none by default. */
  protected workspaceSizeBytes(): number | undefined {
    return undefined;
  }

  /** Workspace entry bound of the watchdog's walk; the watchdog's default when undefined. */
  protected workspaceMaxEntries(): number | undefined {
    return undefined;
  }

  /**
   * The limits in force for sandboxes made with this runtime's defaults, and what enforces each
   * (cgroup, rlimit, or the host's watchdog). Cheap after the first call; never throws.
   */
  limitsInForce(): SandboxLimitsInForce {
    const workspaceSizeBytes = this.workspaceSizeBytes();
    return describeLimitsInForce(this.name, this.options.defaultLimits, {
      ...this.limitFacts(),
      ...(workspaceSizeBytes !== undefined ? { workspaceSizeBytes } : {}),
    });
  }

  /** What the watchdog of one sandbox enforces, given the cgroups its plan got. */
  #watchdogLimits(limits: SandboxLimits, plan: LaunchPlan): WatchdogLimits {
    const hasMemoryCgroup = plan.cgroup?.controls("memory") ?? false;
    const workspaceSizeBytes = this.workspaceSizeBytes();
    const workspaceMaxEntries = this.workspaceMaxEntries();
    return {
      ...(limits.totalCpuSec !== undefined ? { totalCpuSec: limits.totalCpuSec } : {}),
      ...(limits.memoryBytes !== undefined && !hasMemoryCgroup
        ? { rssBytes: limits.memoryBytes + SANDBOX_MEMORY_HEADROOM_BYTES }
        : {}),
      ...(workspaceSizeBytes !== undefined ? { workspaceSizeBytes } : {}),
      ...(workspaceMaxEntries !== undefined ? { workspaceMaxEntries } : {}),
    };
  }

  create(spec: SandboxSpec, signal?: AbortSignal): Promise<ManagedSandbox> {
    return this.#start(spec, signal);
  }

  /**
   * A pooled sandbox when one fits `spec`, else a cold start. `fill` puts the workspace's contents
   * in: into a pooled sandbox right after the take, into a cold one while it starts (the
   * workspace is a host directory bound in, so it may be filled before or after the server is up).
   */
  async #start(spec: SandboxSpec, signal?: AbortSignal, fill?: WorkspaceFill): Promise<ManagedSandbox> {
    const pooled = this.#pools && isPoolable(spec) ? this.#pools.take(spec.image) : undefined;
    if (pooled) {
      try {
        for (const [path, data] of Object.entries(spec.files ?? {})) await pooled.writeFile(path, data);
        await fill?.(pooled.workspaceHostPath, new AbortController().signal);
      } catch (error) {
        await pooled.close();
        throw error;
      }
      pooled.assign(spec.jobId ?? null, { fromPool: true });
      return pooled;
    }
    const sandbox = await this.#createCold(spec, signal, fill);
    sandbox.assign(spec.jobId ?? null);
    return sandbox;
  }

  /**
   * The warm pools' size now (an auto pool's learned one) and their ready members, summed over
   * the images; undefined without a pool.
   */
  get warmPool(): { targetSize: number; idle: number } | undefined {
    return this.#pools?.totals;
  }

  /** Ready pooled sandboxes per image (`""` for the host's root filesystem). */
  get warmPoolByImage(): Map<string, number> {
    return this.#pools?.idleByImage() ?? new Map();
  }

  /** Starts the warm pool (a fixed `warmPoolSize`; an auto pool fills once a group forked) and resolves once it is full. */
  warmUp(): Promise<void> {
    return this.#pools?.fill() ?? Promise.resolve();
  }

  async prepareTemplate<T>(
    spec: SandboxSpec,
    prepare: (sandbox: Sandbox) => Promise<T>,
    signal?: AbortSignal,
    options: PrepareTemplateOptions = {},
  ): Promise<PreparedSandboxTemplate<T>> {
    const sandbox = await this.create(spec, signal);
    let value: T;
    try {
      value = await prepare(sandbox);
      signal?.throwIfAborted();
    } catch (error) {
      await sandbox.close();
      throw error;
    }
    const id = `${DIR_PREFIX}tpl-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
    const root = await createTemplateRoot(this.options.baseDir, id, this.#hostId);
    try {
      if (options.keepSandbox) await this.#copyLiveWorkspace(sandbox, templateWorkspace(root), signal);
      else await sandbox.closeKeepingWorkspace(templateWorkspace(root));
    } catch (error) {
      await sandbox.close();
      await removeSandboxDirs(root);
      throw error;
    }
    const template = new WorkspaceTemplate(id, root, (gone) => this.#templates.delete(gone));
    this.#templates.add(template);
    return { template, value, ...(options.keepSandbox ? { sandbox } : {}) };
  }

  /**
   * The template's copy of a sandbox that keeps running (`keepSandbox`): taken after `prepare`
   * returned and before the sandbox is handed on, so nothing the caller runs later reaches it.
   */
  async #copyLiveWorkspace(
    sandbox: ManagedSandbox,
    destination: string,
    signal?: AbortSignal,
  ): Promise<void> {
    await mkdir(destination, { mode: 0o700 });
    await cloneWorkspace(sandbox.workspaceHostPath, destination);
    signal?.throwIfAborted();
    if (sandbox.state !== "ready") {
      throw sandboxFailure("closed", `sandbox ${sandbox.id} is ${sandbox.state}; its workspace is not kept`);
    }
  }

  async createFrom(
    template: SandboxTemplate | PromiseLike<SandboxTemplate>,
    spec: SandboxSpec,
    signal?: AbortSignal,
  ): Promise<ManagedSandbox> {
    const { files, ...rest } = spec;
    const startedAt = performance.now();
    let filled: { templateId: string; waitedForTemplateMs: number; copyMs: number } | undefined;
    // Awaited only once the member's directories exist: a template failing before that is
    // reported through the fill below, never as an unhandled rejection.
    const templateReady = Promise.resolve(template);
    templateReady.catch(() => undefined);
    // The sandbox starts while the template may still be prepared; the copy goes in as soon as
    // both exist (a cold start's workspace is filled while its server starts).
    const sandbox = await this.#start(rest, signal, async (workspace, cancelled) => {
      const ready = this.#heldTemplate(await templateReady);
      // What one group used (its template's sandbox and each member so far) sizes an auto pool.
      this.#pools?.demand(rest.image, ready.countSandbox());
      const copyFrom = performance.now();
      if (cancelled.aborted) return;
      try {
        await cloneWorkspace(ready.workspace, workspace);
        await writeWorkspaceFiles(workspace, files, this.sandboxOwner());
      } catch (error) {
        throw sandboxFailure("start_failed", error instanceof Error ? error.message : String(error), {
          cause: error,
        });
      }
      filled = {
        templateId: ready.id,
        waitedForTemplateMs: Math.round(copyFrom - startedAt),
        copyMs: Math.round(performance.now() - copyFrom),
      };
    });
    if (filled) {
      this.#emit({
        sandboxId: sandbox.id,
        jobId: spec.jobId ?? null,
        type: "forked",
        state: sandbox.state,
        detail: { ...filled, readyMs: Math.round(performance.now() - startedAt) },
        atMs: Date.now(),
      });
    }
    return sandbox;
  }

  #heldTemplate(template: SandboxTemplate): WorkspaceTemplate {
    if (!(template instanceof WorkspaceTemplate) || !this.#templates.has(template)) {
      throw sandboxFailure("start_failed", `template ${template.id} is not held by this runtime (removed?)`);
    }
    return template;
  }

  /** Templates this runtime holds right now. */
  get heldTemplates(): readonly SandboxTemplate[] {
    return [...this.#templates];
  }

  /**
   * The root filesystem `spec.image` names, held until the sandbox is gone: a runtime that
   * unpacks images returns the spec with `image` set to the unpacked root. Default: as given.
   */
  protected leaseImage(spec: SandboxSpec): Promise<ImageLeaseForSpec> {
    return Promise.resolve({ spec, release: () => Promise.resolve() });
  }

  async #createCold(
    requested: SandboxSpec,
    signal?: AbortSignal,
    fill?: WorkspaceFill,
  ): Promise<ManagedSandbox> {
    let image: ImageLeaseForSpec;
    try {
      image = await this.leaseImage(requested);
    } catch (error) {
      throw sandboxFailure("start_failed", error instanceof Error ? error.message : String(error), {
        cause: error,
      });
    }
    try {
      return await this.#createColdOn(image, signal, fill);
    } catch (error) {
      await image.release();
      throw error;
    }
  }

  async #createColdOn(
    image: ImageLeaseForSpec,
    signal?: AbortSignal,
    fill?: WorkspaceFill,
  ): Promise<ManagedSandbox> {
    const { spec } = image;
    const bundle = await ensureServerBundle(
      this.options.baseDir,
      this.sandboxOwner(),
      this.options.execBinDir,
    );
    const id = `${DIR_PREFIX}${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
    const limits = mergeLimits(this.options.defaultLimits, spec.limits);
    const owner = this.sandboxOwner();
    if (owner) await this.#allowTraversal();
    const dirs = await createSandboxDirs(this.options.baseDir, id, spec.files, owner, this.#hostId);
    let plan: LaunchPlan;
    let inside: InsideLayout;
    try {
      inside = this.insideLayout(dirs, bundle, spec);
      plan = await this.#planFor(id, spec, limits, dirs, bundle);
    } catch (error) {
      await removeSandboxDirs(dirs.root);
      throw sandboxFailure("start_failed", error instanceof Error ? error.message : String(error), {
        cause: error,
      });
    }
    const sandbox = new ManagedSandbox({
      id,
      jobId: spec.jobId ?? null,
      dirs,
      inside: { run: inside.run, serverDir: dirname(inside.pythonDriver) },
      plan,
      startTimeoutMs: this.options.startTimeoutMs,
      ...(limits.wallTimeMs !== undefined ? { wallTimeMs: limits.wallTimeMs } : {}),
      watchdog: this.#watchdogLimits(limits, plan),
      hangSlackMs: this.options.hangSlackMs,
      defaultTimeoutMs: this.options.defaultToolTimeoutMs,
      hostDisk: this.#hostDisk,
      emit: (event) => this.#emit(event),
      onGone: () => {
        this.#sandboxes.delete(sandbox);
        void image.release();
      },
    });
    this.#sandboxes.add(sandbox);
    const cancelFill = new AbortController();
    const filling = fill?.(dirs.workspace, cancelFill.signal);
    filling?.catch(() => undefined);
    try {
      await sandbox.start(signal);
      await filling;
    } catch (error) {
      // A copy still running would write into the removed directory: stop it, wait, remove again.
      cancelFill.abort();
      await sandbox.close();
      await filling?.catch(() => undefined);
      await removeSandboxDirs(dirs.root);
      throw error;
    }
    this.lastIsolation = sandbox.isolation;
    return sandbox;
  }

  async #planFor(
    id: string,
    spec: SandboxSpec,
    limits: SandboxLimits,
    dirs: SandboxDirs,
    bundle: ServerBundle,
  ): Promise<LaunchPlan> {
    const inside = this.insideLayout(dirs, bundle, spec);
    const config: ExecServerConfig = {
      socketPath: join(inside.run, "exec.sock"),
      workspaceRoot: inside.workspace,
      scratchDir: inside.run,
      pythonDriverPath: inside.pythonDriver,
      env: {
        PATH: SANDBOX_PATH,
        HOME: inside.workspace,
        LANG: "C.UTF-8",
        PAGER: "cat",
        GIT_PAGER: "cat",
        ...spec.env,
      },
      shellPath: inside.shellPath ?? this.options.shellPath,
      ...(inside.shellLauncher ? { shellLauncher: inside.shellLauncher } : {}),
      pythonPath: this.options.pythonPath,
      defaultTimeoutMs: this.options.defaultToolTimeoutMs,
      noOutputTimeoutMs: this.options.noOutputTimeoutMs,
      maxOutputBytes: limits.maxOutputBytes ?? DEFAULT_LIMITS.maxOutputBytes!,
      ...(limits.cpuTimeSec !== undefined ? { cpuTimeSec: limits.cpuTimeSec } : {}),
      ...(limits.memoryBytes !== undefined ? { memoryBytes: limits.memoryBytes } : {}),
      ...(this.workspaceSizeBytes() !== undefined ? { fileSizeBytes: this.workspaceSizeBytes() } : {}),
      execMaxOutputBytes: EXEC_MAX_OUTPUT_BYTES,
      ...(inside.jail ? { jail: inside.jail } : {}),
      prestartBash: true,
    };
    const encodedConfig = Buffer.from(JSON.stringify(config)).toString("base64");
    return this.launchPlan({ id, spec, limits, dirs, bundle, inside, encodedConfig });
  }

  /** A sandbox running as another uid must be able to pass through the base directory. */
  async #allowTraversal(): Promise<void> {
    const { mode } = await stat(this.options.baseDir);
    if ((mode & 0o011) !== 0o011) await chmod(this.options.baseDir, mode | 0o011);
    for (let dir = dirname(this.options.baseDir); dir !== dirname(dir); dir = dirname(dir)) {
      if (((await stat(dir)).mode & 0o001) === 0) {
        throw sandboxFailure(
          "start_failed",
          `sandboxes run as another uid and cannot reach ${this.options.baseDir}: ${dir} is not searchable by others; use a baseDir under a world-searchable directory such as /tmp`,
        );
      }
    }
  }

  onEvent(listener: SandboxEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Sandboxes this runtime holds open right now. */
  get openSandboxes(): readonly ManagedSandbox[] {
    return [...this.#sandboxes];
  }

  /** Closes every sandbox and removes every template this runtime holds. */
  async closeAll(): Promise<void> {
    await this.#pools?.close();
    await Promise.all([...this.#sandboxes].map((sandbox) => sandbox.close()));
    await Promise.all([...this.#templates].map((template) => template.remove()));
  }

  #emit(event: TSandboxEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A faulty listener must not break the sandbox lifecycle.
      }
    }
  }
}
