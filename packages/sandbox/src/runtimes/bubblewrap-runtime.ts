import { existsSync, lstatSync, readdirSync, readlinkSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SandboxLimits, SandboxSpec } from "@raas/engine";
import type { LaunchPlan } from "../host/managed-sandbox";
import { SandboxCgroup } from "../host/sandbox-cgroup";
import { HOST_CHANNEL_SUBDIR, recordSandboxCgroups, type SandboxDirs } from "../host/sandbox-dirs";
import type { ServerBundle } from "../host/server-bundle";
import { ImageCache } from "../images/image-cache";
import { assertImageHasTools } from "../images/image-requirements";
import { TOOLS_SCRATCH_SUBDIR } from "../server/tool-dispatch";
import {
  BaseRuntime,
  type ImageLeaseForSpec,
  type InsideLayout,
  type RuntimeLimitFacts,
} from "./base-runtime";
import { type BubblewrapCommandInput, BWRAP_INSIDE, buildBubblewrapArgs } from "./bubblewrap-command";
import { findExecutable } from "./find-executable";
import { HostPrograms } from "./host-programs";
import { type HostTools, hostToolArgv, stageHostTools } from "./host-tools";
import { stageImageShell } from "./image-shell";
import {
  DEFAULT_WORKSPACE_SIZE_BYTES,
  mergeLimits,
  SANDBOX_MEMORY_HEADROOM_BYTES,
  SANDBOX_PATH,
  type SandboxRuntimeOptions,
} from "./runtime-options";
import { sizeTmpfsMounts, type TmpfsSizes } from "./tmpfs-sizes";

export interface BubblewrapRuntimeOptions extends SandboxRuntimeOptions {
  /** bwrap binary. Default `bwrap` (looked up on PATH). */
  bwrapPath?: string;
  /**
   * Host uid/gid that runs bwrap when this process is root. Root inside a user namespace is
   * exempt from RLIMIT_NPROC, so a fork bomb would only be stopped by an unprivileged uid.
   * Default 65534/65534 (nobody) when running as root; ignored otherwise.
   */
  sandboxHostUid?: number;
  sandboxHostGid?: number;
  /** uid/gid inside the sandbox. Default 1000/1000. */
  insideUid?: number;
  insideGid?: number;
  /**
   * Size of the private /tmp (and of each command's own /tmp), in bytes. Default 1 GiB. Cut
   * down with /dev/shm when the two /tmp and /dev/shm would not fit in the sandbox's memory bound
   * together (see `sizeTmpfsMounts`): tmpfs files are memory no RSS shows.
   */
  tmpSizeBytes?: number;
  /** Size of /dev/shm in bytes. Default 256 MiB (cut down as /tmp is). */
  shmSizeBytes?: number;
  /**
   * Run the agent's tools and handler commands in a nested user/pid/mount namespace (a second
   * bwrap inside the sandbox), so they cannot see, signal or trace the execution server. `auto`
   * uses it where the sandbox's root has bwrap (the host's always does) and the kernel allows it;
   * the sandbox reports whether it is in force (`ready` event, `health().isolation`). Default `auto`.
   */
  toolJail?: "auto" | "off";
  /** prlimit inside the sandbox (applies the process limit). Default `/usr/bin/prlimit`. */
  prlimitPath?: string;
  /**
   * Also enforce `maxProcesses` (+1 for bwrap itself) and `memoryBytes` (+{@link CGROUP_MEMORY_HEADROOM_BYTES}
   * for the server) as whole-sandbox totals with cgroup v1 `pids`/`memory` controllers, created below
   * this process's own cgroup. `auto` uses them when writable and silently skips them otherwise.
   * Default `auto`.
   */
  cgroups?: "auto" | "off";
  /**
   * Bytes the workspace may occupy. The host's watchdog measures the workspace directory (a
   * bounded, asynchronous walk at most every 3 s) and closes the sandbox over the limit, as the
   * policy's doing; every tool process also gets it as RLIMIT_FSIZE, so no single file outgrows
   * it between walks. Rootless and works on any file system, but it is a poll: a fast writer can
   * overshoot by what it writes in one interval (bounded by the free disk and, per file, by
   * RLIMIT_FSIZE). A size-capped tmpfs would refuse at once but holds the workspace in memory.
   * Default {@link DEFAULT_WORKSPACE_SIZE_BYTES} (4 GiB).
   */
  workspaceSizeBytes?: number;
  /** Files and directories the workspace may hold (bounds the walk). Default 500_000. */
  workspaceMaxEntries?: number;
  /**
   * Where `spec.image` references (an OCI layout or archive, a docker save archive, a SIF file)
   * are unpacked, shared by every runtime and process of the host that is given the same
   * directory. A root filesystem directory is used in place. Default an {@link ImageCache} in
   * {@link DEFAULT_IMAGE_CACHE_DIR} with its default cap.
   */
  imageCache?: ImageCache;
}

function isRegularFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

/** Where images are unpacked when no `imageCache` is given: `<os.tmpdir()>/raas-image-cache`. */
export const DEFAULT_IMAGE_CACHE_DIR = join(tmpdir(), "raas-image-cache");

/** Memory the execution server and shell need on top of the tools' own limit, in bytes. */
const CGROUP_MEMORY_HEADROOM_BYTES = SANDBOX_MEMORY_HEADROOM_BYTES;

/** Top-level host paths a default sandbox sees read-only (merged-/usr systems make most symlinks). */
const HOST_ROOT_ENTRIES = ["usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32"];
const HOST_ETC_FILES = [
  "/etc/passwd",
  "/etc/group",
  "/etc/hosts",
  "/etc/nsswitch.conf",
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/localtime",
  "/etc/alternatives",
  "/etc/ssl/certs",
  "/etc/ca-certificates",
];
/** Entries of a rootfs image that the sandbox provides itself. */
const RUNTIME_OWNED = new Set([
  "proc",
  "dev",
  "tmp",
  "run",
  "sys",
  "workspace",
  "home",
  "root",
  "opt",
  "lost+found",
]);

function describeEntries(root: string, names: string[]): BubblewrapCommandInput["rootfsEntries"] {
  const entries: BubblewrapCommandInput["rootfsEntries"] = [];
  for (const name of names) {
    const path = join(root, name);
    if (!existsSync(path)) continue;
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) entries.push({ name, kind: "symlink", target: readlinkSync(path) });
    else if (stat.isDirectory()) entries.push({ name, kind: "dir" });
  }
  return entries;
}

/**
 * Rootless bubblewrap sandboxes: no network, read-only system, one writable workspace, a
 * private /tmp, own pid namespace, process/CPU/memory/output/wall limits. Default on Linux.
 */
export class BubblewrapRuntime extends BaseRuntime {
  readonly name = "bubblewrap";
  readonly #bwrap: Required<
    Pick<
      BubblewrapRuntimeOptions,
      "bwrapPath" | "insideUid" | "insideGid" | "tmpSizeBytes" | "shmSizeBytes" | "prlimitPath" | "toolJail"
    >
  >;
  /** Whether the caller chose the shell; otherwise the host's bash runs as an execute-only copy. */
  readonly #isDefaultShell: boolean;
  readonly #owner: { uid: number; gid: number } | undefined;
  readonly #useCgroups: boolean;
  readonly #workspace: Pick<BubblewrapRuntimeOptions, "workspaceSizeBytes" | "workspaceMaxEntries">;
  #cgroupProbe: RuntimeLimitFacts["cgroups"] | undefined;
  /** The host's node and bash, for images that cannot run their own (see `host-programs.ts`). */
  readonly #hostPrograms: HostPrograms;
  #imageCache: ImageCache | undefined;

  constructor(options: BubblewrapRuntimeOptions = {}) {
    super(options);
    this.#workspace = {
      ...(options.workspaceSizeBytes !== undefined ? { workspaceSizeBytes: options.workspaceSizeBytes } : {}),
      ...(options.workspaceMaxEntries !== undefined
        ? { workspaceMaxEntries: options.workspaceMaxEntries }
        : {}),
    };
    this.#bwrap = {
      bwrapPath: options.bwrapPath ?? "bwrap",
      insideUid: options.insideUid ?? 1000,
      insideGid: options.insideGid ?? 1000,
      tmpSizeBytes: options.tmpSizeBytes ?? 1024 ** 3,
      shmSizeBytes: options.shmSizeBytes ?? 256 * 1024 ** 2,
      prlimitPath: options.prlimitPath ?? "/usr/bin/prlimit",
      toolJail: options.toolJail ?? "auto",
    };
    this.#imageCache = options.imageCache;
    this.#isDefaultShell = options.shellPath === undefined;
    this.#hostPrograms = new HostPrograms(this.options.shellPath, this.#isDefaultShell);
    this.#useCgroups = options.cgroups !== "off";
    this.#owner =
      process.getuid?.() === 0
        ? { uid: options.sandboxHostUid ?? 65_534, gid: options.sandboxHostGid ?? 65_534 }
        : undefined;
  }

  /** The image unpacked (or found) in the cache; refused at once when it lacks the server's tools. */
  protected override async leaseImage(spec: SandboxSpec): Promise<ImageLeaseForSpec> {
    if (spec.image === undefined) return { spec, release: () => Promise.resolve() };
    this.#imageCache ??= new ImageCache({ dir: DEFAULT_IMAGE_CACHE_DIR });
    const lease = await this.#imageCache.acquire(spec.image);
    try {
      const maxProcesses = mergeLimits(this.options.defaultLimits, spec.limits).maxProcesses;
      // The host's prlimit runs with the host's libraries; only without it is the image's needed.
      const hasHostPrlimit = this.#hostTools()?.names.includes("prlimit") ?? false;
      assertImageHasTools(
        spec.image,
        lease.rootfs,
        {
          ...this.#hostPrograms.needs(),
          ...(maxProcesses !== undefined && !hasHostPrlimit ? { prlimitPath: this.#bwrap.prlimitPath } : {}),
        },
        this.#hostPrograms.standIns(lease.rootfs),
      );
    } catch (error) {
      await lease.release();
      throw error;
    }
    return { spec: { ...spec, image: lease.rootfs }, release: () => lease.release() };
  }

  protected sandboxOwner(): { uid: number; gid: number } | undefined {
    return this.#owner;
  }

  protected override workspaceSizeBytes(): number | undefined {
    return this.#workspace.workspaceSizeBytes ?? DEFAULT_WORKSPACE_SIZE_BYTES;
  }

  protected override workspaceMaxEntries(): number | undefined {
    return this.#workspace.workspaceMaxEntries;
  }

  protected limitFacts(): RuntimeLimitFacts {
    this.#cgroupProbe ??= this.#useCgroups ? SandboxCgroup.probe() : { pids: false, memory: false };
    const jail =
      this.#bwrap.toolJail === "off"
        ? "off"
        : this.lastIsolation === undefined
          ? "unknown"
          : this.lastIsolation.toolJail
            ? "on"
            : "off";
    const sizes = this.#tmpfsSizes(this.options.defaultLimits);
    return {
      cgroups: this.#cgroupProbe,
      hasProcessRlimit: true,
      shmBytes: sizes.shmBytes,
      tmpBytes: sizes.tmpBytes,
      toolJail: jail,
    };
  }

  /** The tmpfs sizes of a sandbox with these limits: within its memory bound together. */
  #tmpfsSizes(limits: SandboxLimits): TmpfsSizes {
    const { memoryBytes } = limits;
    return sizeTmpfsMounts(
      { tmpBytes: this.#bwrap.tmpSizeBytes, shmBytes: this.#bwrap.shmSizeBytes },
      memoryBytes === undefined ? undefined : memoryBytes + SANDBOX_MEMORY_HEADROOM_BYTES,
    );
  }

  protected insideLayout(_dirs: SandboxDirs, bundle: ServerBundle, spec: SandboxSpec): InsideLayout {
    const jailBwrap = this.#bwrap.toolJail === "auto" ? this.#jailBwrapPath(spec) : undefined;
    return {
      workspace: BWRAP_INSIDE.workspace,
      run: BWRAP_INSIDE.run,
      pythonDriver: `${BWRAP_INSIDE.serverDir}/python-driver.py`,
      // On an image the image's own bash is copied execute-only at launch (`stageImageShell`).
      ...(this.#isDefaultShell &&
      (spec.image === undefined || isRegularFile(join(spec.image, "usr/bin/bash")))
        ? { shellPath: BWRAP_INSIDE.bash }
        : {}),
      // An image without bash: the host's, run by an execute-only copy of the host's loader.
      ...(spec.image !== undefined ? this.#hostPrograms.shellLayout(spec.image, bundle.nodePtyDir) : {}),
      ...(jailBwrap
        ? {
            jail: {
              ...jailBwrap,
              uid: this.#bwrap.insideUid,
              gid: this.#bwrap.insideGid,
              hiddenDirs: [BWRAP_INSIDE.run, BWRAP_INSIDE.hostProc],
              readOnlyDirs: [
                `${BWRAP_INSIDE.run}/${TOOLS_SCRATCH_SUBDIR}`,
                `${BWRAP_INSIDE.run}/${HOST_CHANNEL_SUBDIR}`,
              ],
              execTmpSizeBytes: this.#tmpfsSizes(mergeLimits(this.options.defaultLimits, spec.limits))
                .execTmpBytes,
            },
          }
        : {}),
    };
  }

  /**
   * bwrap as the sandbox sees it: on the host root the host's (under /usr); on an image the host's
   * bound in with the host's own loader and libraries (`host-tools.ts`: nothing of the image's is
   * needed, nor must its libc fit), else the image's own; none = no jail.
   */
  #jailBwrapPath(spec: SandboxSpec): { bwrapPath: string; launcher?: string[] } | undefined {
    if (spec.image !== undefined) {
      const tools = this.#hostTools();
      if (tools?.names.includes("bwrap")) {
        const argv = hostToolArgv(tools, "bwrap");
        const launcher = argv.slice(0, -1);
        return { bwrapPath: argv.at(-1)!, ...(launcher.length > 0 ? { launcher } : {}) };
      }
      return existsSync(join(spec.image, "usr/bin/bwrap")) ? { bwrapPath: "/usr/bin/bwrap" } : undefined;
    }
    const resolved = this.#hostBwrap();
    return resolved && /^\/(usr|bin|sbin)\//.test(resolved) ? { bwrapPath: resolved } : undefined;
  }

  #stagedHostTools: HostTools | null | undefined;

  /** The host's bwrap and prlimit with their loader and libraries, staged once per runtime. */
  #hostTools(): HostTools | undefined {
    if (this.#stagedHostTools === undefined) {
      const prlimit = this.#bwrap.prlimitPath;
      this.#stagedHostTools =
        stageHostTools({
          ...(this.#bwrap.toolJail === "auto" ? { bwrap: this.#hostBwrap() } : {}),
          prlimit: existsSync(prlimit) ? prlimit : findExecutable("prlimit", SANDBOX_PATH),
        }) ?? null;
    }
    return this.#stagedHostTools ?? undefined;
  }

  #hostBwrapPath: string | null | undefined;

  #hostBwrap(): string | undefined {
    if (this.#hostBwrapPath === undefined) {
      const name = this.#bwrap.bwrapPath;
      const found = name.includes("/")
        ? existsSync(name)
          ? name
          : undefined
        : findExecutable(name, SANDBOX_PATH);
      this.#hostBwrapPath = found ? realpathSync(found) : null;
    }
    return this.#hostBwrapPath ?? undefined;
  }

  protected async launchPlan(args: {
    id: string;
    spec: SandboxSpec;
    limits: SandboxLimits;
    dirs: SandboxDirs;
    bundle: ServerBundle;
    inside: InsideLayout;
    encodedConfig: string;
  }): Promise<LaunchPlan> {
    const rootfs = args.spec.image ?? "host";
    const names =
      rootfs === "host" ? HOST_ROOT_ENTRIES : readdirSync(rootfs).filter((name) => !RUNTIME_OWNED.has(name));
    const tmpfs = this.#tmpfsSizes(args.limits);
    const {
      bashHostPath: hostBash,
      nodeHostPath,
      ...hostPrograms
    } = rootfs === "host"
      ? {}
      : await this.#hostPrograms.launch(rootfs, args.dirs.root, args.bundle.nodePtyDir, this.#owner);
    const bashHostPath =
      hostBash ??
      (args.inside.shellPath !== BWRAP_INSIDE.bash
        ? undefined
        : rootfs === "host"
          ? args.bundle.bashPath
          : await stageImageShell(rootfs, args.dirs.root, this.#owner));
    const hostTools = rootfs === "host" ? undefined : this.#hostTools();
    const bwrapArgs = buildBubblewrapArgs({
      bwrapPath: this.#bwrap.bwrapPath,
      rootfs,
      rootfsEntries: describeEntries(rootfs === "host" ? "/" : rootfs, names),
      hostEtcFiles: HOST_ETC_FILES,
      workspaceHostDir: args.dirs.workspace,
      runHostDir: args.dirs.run,
      serverHostDir: args.bundle.dir,
      nodePtyHostDir: args.bundle.nodePtyDir,
      nodeHostPath: nodeHostPath ?? args.bundle.nodePath,
      ...hostPrograms,
      ...(bashHostPath !== undefined ? { bashHostPath } : {}),
      ...(hostTools !== undefined ? { hostToolsHostDir: hostTools.dir } : {}),
      ...(hostTools?.names.includes("prlimit") ? { prlimitArgv: hostToolArgv(hostTools, "prlimit") } : {}),
      ...(args.spec.readOnlyBinds ? { readOnlyBinds: args.spec.readOnlyBinds } : {}),
      bindHostProc: args.inside.jail !== undefined,
      disableUserNamespaces: args.inside.jail === undefined,
      tmpSizeBytes: tmpfs.tmpBytes,
      shmSizeBytes: tmpfs.shmBytes,
      insideUid: this.#bwrap.insideUid,
      insideGid: this.#bwrap.insideGid,
      env: { PATH: SANDBOX_PATH, HOME: BWRAP_INSIDE.workspace },
      ...(args.limits.maxProcesses !== undefined ? { maxProcesses: args.limits.maxProcesses } : {}),
      prlimitPath: this.#bwrap.prlimitPath,
      serverArgs: [args.encodedConfig],
    });
    const cgroup = await this.#createCgroup(args.id, args.limits, args.dirs.root);
    return {
      command: this.#bwrap.bwrapPath,
      args: bwrapArgs,
      ...(cgroup ? { cgroup } : {}),
      env: { PATH: SANDBOX_PATH },
      ...(this.#owner ? { uid: this.#owner.uid, gid: this.#owner.gid } : {}),
    };
  }

  /** The sandbox's cgroups (when enabled and writable), recorded beside it for a later reaper. */
  async #createCgroup(id: string, limits: SandboxLimits, root: string): Promise<SandboxCgroup | undefined> {
    if (!this.#useCgroups) return undefined;
    const { maxProcesses, memoryBytes } = limits;
    const cgroup = await SandboxCgroup.create(
      id,
      {
        ...(maxProcesses !== undefined ? { maxTasks: maxProcesses + 1 } : {}),
        ...(memoryBytes !== undefined ? { memoryBytes: memoryBytes + CGROUP_MEMORY_HEADROOM_BYTES } : {}),
      },
      this.#owner,
    );
    if (!cgroup) return undefined;
    try {
      await recordSandboxCgroups(root, cgroup.dirs);
    } catch (error) {
      await cgroup.remove(); // Unrecorded, no reaper would find it.
      throw error;
    }
    return cgroup;
  }
}
