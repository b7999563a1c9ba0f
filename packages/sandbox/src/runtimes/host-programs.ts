import { existsSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { type ImageGaps, type ImageNeeds, imageGaps } from "../images/image-requirements";
import { BWRAP_INSIDE } from "./bubblewrap-command";
import { type HostTools, hostToolArgv, sharedObjectsOf, stageHostTools } from "./host-tools";
import { stageExecOnlyCopy } from "./image-shell";

type Owner = { uid: number; gid: number } | undefined;

/** What a sandbox on an image binds and runs of the host's programs (all unset: none). */
export interface HostProgramLaunch {
  /** Execute-only copy of the host's loader, bound at `BWRAP_INSIDE.bash`, that runs the host's bash. */
  bashHostPath?: string;
  /** Execute-only copy of the host's loader, bound at `BWRAP_INSIDE.node`, that runs the host's node. */
  nodeHostPath?: string;
  /** What follows `BWRAP_INSIDE.node` to run the host's node (`--library-path …`). */
  nodeArgs?: string[];
  /** The staged programs, bound at `BWRAP_INSIDE.hostPrograms`. */
  hostProgramsHostDir?: string;
}

/**
 * The host's node and bash for sandboxes on images that cannot run their own: an image without
 * bash (busybox, Alpine) gets the host's bash as the agent's shell, one the host's node cannot
 * load in (musl, no glibc at all) gets the execution server run by the host's loader with the
 * host's libraries. Staged once like the host tools (`host-tools.ts`), bound read-only at
 * `BWRAP_INSIDE.hostPrograms`. What each sandbox executes is its own execute-only copy of the
 * host's loader: a process that runs a file it cannot read is not dumpable, so the tools can
 * neither ptrace the shell or the server nor read their memory or their executable; the programs
 * the loader reads (`libexec/`) are the host's public node and bash. Everything the agent's
 * commands start comes from the image (its PATH, its /bin/sh).
 */
export class HostPrograms {
  readonly #shellPath: string;
  /** Only the runtime's own default shell is replaced: a shell the caller chose must be the image's. */
  readonly #isDefaultShell: boolean;
  #nodeNeeds: ReturnType<typeof sharedObjectsOf> | undefined;
  #staged: HostTools | null | undefined;

  constructor(shellPath: string, isDefaultShell: boolean) {
    this.#shellPath = shellPath;
    this.#isDefaultShell = isDefaultShell;
  }

  /** What the server and the shell need of an image (see `assertImageHasTools`). */
  needs(): ImageNeeds {
    this.#nodeNeeds ??= sharedObjectsOf(process.execPath);
    return {
      shellPath: this.#shellPath,
      node: { interpreter: this.#nodeNeeds.loader, libraries: this.#nodeNeeds.libraries },
    };
  }

  /** What the host's programs stand in for on the image at `rootfs`. */
  standIns(rootfs: string): ImageGaps {
    const gaps = imageGaps(rootfs, this.needs());
    return { shell: gaps.shell && this.#isDefaultShell, node: gaps.node };
  }

  /** The agent's shell on the image at `rootfs`, when it is the host's bash; else none. */
  shellLayout(rootfs: string, nodePtyDir: string): { shellPath?: string; shellLauncher?: string[] } {
    if (!this.standIns(rootfs).shell) return {};
    const argv = hostToolArgv(this.#programs(nodePtyDir), "bash", BWRAP_INSIDE.bash);
    const launcher = argv.slice(0, -1);
    return { shellPath: argv.at(-1)!, ...(launcher.length > 0 ? { shellLauncher: launcher } : {}) };
  }

  /** Stages the sandbox's execute-only launchers in `sandboxDir` for what the image at `rootfs` lacks. */
  async launch(
    rootfs: string,
    sandboxDir: string,
    nodePtyDir: string,
    owner: Owner,
  ): Promise<HostProgramLaunch> {
    const { shell, node } = this.standIns(rootfs);
    if (!shell && !node) return {};
    const programs = this.#programs(nodePtyDir);
    const launcher = (name: "node" | "bash") =>
      stageExecOnlyCopy(join(programs.dir, "bin", name), sandboxDir, `host-${name}`, owner);
    return {
      hostProgramsHostDir: programs.dir,
      ...(shell ? { bashHostPath: await launcher("bash") } : {}),
      ...(node
        ? {
            nodeHostPath: await launcher("node"),
            nodeArgs: hostToolArgv(programs, "node", BWRAP_INSIDE.node).slice(1),
          }
        : {}),
    };
  }

  /** node (with the libraries node-pty's addon loads too) and bash, staged once. */
  #programs(nodePtyDir: string): HostTools {
    if (this.#staged === undefined) {
      const native = join(nodePtyDir, "build", "Release", "pty.node");
      const tools = stageHostTools(
        { node: process.execPath, bash: realpathSync("/bin/bash") },
        undefined,
        existsSync(native) ? [native] : [],
      );
      this.#staged = tools ? { ...tools, inside: BWRAP_INSIDE.hostPrograms } : null;
    }
    if (this.#staged === null) throw new Error("the host's node and bash could not be staged");
    return this.#staged;
  }
}
