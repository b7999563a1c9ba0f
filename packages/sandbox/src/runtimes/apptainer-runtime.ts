import type { SandboxLimits, SandboxSpec } from "@raas/engine";
import type { LaunchPlan } from "../host/managed-sandbox";
import type { SandboxDirs } from "../host/sandbox-dirs";
import type { ServerBundle } from "../host/server-bundle";
import { APPTAINER_INSIDE, buildApptainerArgs } from "./apptainer-command";
import { BaseRuntime, type InsideLayout, type RuntimeLimitFacts } from "./base-runtime";
import { SANDBOX_PATH, type SandboxRuntimeOptions } from "./runtime-options";

export interface ApptainerRuntimeOptions extends SandboxRuntimeOptions {
  /** `apptainer` or `singularity` binary (absolute, or looked up on PATH by spawn). Default `apptainer`. */
  binaryPath?: string;
  /** Image used when a spec names none (.sif file or sandbox directory). Default none: specs must name one. */
  defaultImage?: string;
  /** Node binary inside the image. Default `/usr/bin/node`. */
  nodeInsidePath?: string;
  /**
   * Bind the host's node-pty into the container. Only safe when host and image share a libc
   * ABI; the recipe in `singularity/` installs node-pty in the image instead. Default false.
   */
  bindHostNodePty?: boolean;
  /** Request `--net --network none`. Default true. */
  isolateNetwork?: boolean;
  /** prlimit inside the image. Default `/usr/bin/prlimit`. */
  prlimitPath?: string;
  /**
   * Apply `maxProcesses` as RLIMIT_NPROC inside the container. Only safe when the container has
   * its own user namespace (unprivileged installs, or `--userns`): on setuid installs the
   * count covers every process of the user on the node. Default false (rely on Slurm's cgroups).
   */
  limitProcessesWithRlimit?: boolean;
}

/**
 * Singularity/Apptainer sandboxes for HPC clusters (Slurm nodes, no root, no Docker).
 * The image provides python3, git, node and node-pty (see singularity/raas-base.def); the
 * execution server bundle is bound in read-only at start.
 */
export class ApptainerRuntime extends BaseRuntime {
  readonly name = "apptainer";
  readonly #app: Required<Omit<ApptainerRuntimeOptions, keyof SandboxRuntimeOptions | "defaultImage">> & {
    defaultImage: string | undefined;
  };

  constructor(options: ApptainerRuntimeOptions = {}) {
    super(options);
    this.#app = {
      binaryPath: options.binaryPath ?? "apptainer",
      defaultImage: options.defaultImage,
      nodeInsidePath: options.nodeInsidePath ?? "/usr/bin/node",
      bindHostNodePty: options.bindHostNodePty ?? false,
      isolateNetwork: options.isolateNetwork ?? true,
      prlimitPath: options.prlimitPath ?? "/usr/bin/prlimit",
      limitProcessesWithRlimit: options.limitProcessesWithRlimit ?? false,
    };
  }

  protected sandboxOwner(): undefined {
    return undefined;
  }

  protected limitFacts(): RuntimeLimitFacts {
    return {
      cgroups: { pids: false, memory: false },
      hasProcessRlimit: this.#app.limitProcessesWithRlimit,
      // --containall gives a private /tmp and /dev/shm whose size the runtime does not choose.
      shmBytes: null,
      tmpBytes: null,
      toolJail: "off",
    };
  }

  protected insideLayout(): InsideLayout {
    return {
      workspace: APPTAINER_INSIDE.workspace,
      run: APPTAINER_INSIDE.run,
      pythonDriver: `${APPTAINER_INSIDE.serverDir}/python-driver.py`,
    };
  }

  /** The full command for one sandbox; exposed so it can be checked without the binary. */
  commandFor(args: {
    spec: SandboxSpec;
    limits: SandboxLimits;
    dirs: SandboxDirs;
    bundle: ServerBundle;
    encodedConfig: string;
  }): LaunchPlan {
    const image = args.spec.image ?? this.#app.defaultImage;
    if (!image)
      throw new Error("the apptainer runtime needs an image: set spec.image or the defaultImage option");
    return {
      command: this.#app.binaryPath,
      args: buildApptainerArgs({
        image,
        workspaceHostDir: args.dirs.workspace,
        runHostDir: args.dirs.run,
        serverHostDir: args.bundle.dir,
        ...(this.#app.bindHostNodePty ? { nodePtyHostDir: args.bundle.nodePtyDir } : {}),
        nodeInsidePath: this.#app.nodeInsidePath,
        isolateNetwork: this.#app.isolateNetwork,
        ...(args.spec.readOnlyBinds ? { readOnlyBinds: args.spec.readOnlyBinds } : {}),
        env: { PATH: SANDBOX_PATH, HOME: APPTAINER_INSIDE.workspace },
        ...(this.#app.limitProcessesWithRlimit && args.limits.maxProcesses !== undefined
          ? { maxProcesses: args.limits.maxProcesses }
          : {}),
        prlimitPath: this.#app.prlimitPath,
        serverArgs: [args.encodedConfig],
      }),
      env: { PATH: SANDBOX_PATH },
    };
  }

  protected launchPlan(args: {
    spec: SandboxSpec;
    limits: SandboxLimits;
    dirs: SandboxDirs;
    bundle: ServerBundle;
    encodedConfig: string;
  }): LaunchPlan {
    return this.commandFor(args);
  }
}
