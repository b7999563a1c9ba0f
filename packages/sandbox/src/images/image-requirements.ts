import { lstatSync, readlinkSync } from "node:fs";
import { dirname, join, posix } from "node:path";

/** What the execution server needs inside an image, as paths inside the sandbox. */
export interface ImageNeeds {
  /** The agent's shell (bash tool, handler commands); the server starts it with the sandbox. */
  shellPath: string;
  /** prlimit, when the process limit is applied inside with the image's own. */
  prlimitPath?: string;
  /**
   * What the host's node (which runs the execution server, execute-only, with the image's loader)
   * loads: its ELF interpreter and shared libraries by name, with the host directories they came
   * from (their image counterparts are searched).
   */
  node?: { interpreter: string | null; libraries: ReadonlyMap<string, string> };
}

/** Resolves `path` inside `rootfs` as the sandbox would, following the image's symlinks (absolute ones too) within it. */
function existsInRootfs(rootfs: string, path: string): boolean {
  let parts = path.split("/").filter(Boolean);
  let resolved = "/";
  for (let hops = 0; parts.length > 0; ) {
    const next = posix.join(resolved, parts.shift()!);
    let info: ReturnType<typeof lstatSync>;
    try {
      info = lstatSync(join(rootfs, next));
    } catch {
      return false;
    }
    if (info.isSymbolicLink()) {
      if (++hops > 40) return false;
      const target = readlinkSync(join(rootfs, next));
      const base = target.startsWith("/") ? "/" : resolved;
      parts = [...posix.join(base, target).split("/").filter(Boolean), ...parts];
      resolved = "/";
    } else resolved = next;
  }
  return true;
}

/** Library directories of an image where the host's `hostDirs` hold node's libraries. */
function libraryDirs(hostDirs: Iterable<string>): string[] {
  const dirs = new Set<string>();
  for (const dir of hostDirs) {
    const plain = dir.replace(/^\/usr\//, "/");
    dirs.add(plain).add(`/usr${plain}`);
  }
  for (const dir of ["/lib64", "/usr/lib64", "/lib", "/usr/lib"]) dirs.add(dir);
  return [...dirs];
}

/** What the host's node needs that the image lacks (none: the image's loader can run it). */
function nodeAbsent(rootfs: string, node: ImageNeeds["node"]): string[] {
  if (node === undefined) return [];
  const { interpreter, libraries } = node;
  const dirs = libraryDirs([...libraries.values()].map((path) => dirname(path)));
  const absent = [...libraries.keys()].filter(
    (name) => !dirs.some((dir) => existsInRootfs(rootfs, `${dir}/${name}`)),
  );
  if (interpreter !== null && !existsInRootfs(rootfs, interpreter)) absent.unshift(interpreter);
  return absent;
}

/** What of the server's and the shell's the image cannot provide, so the host's must stand in. */
export interface ImageGaps {
  /** The image has no shell at `shellPath` (e.g. only busybox's /bin/sh). */
  shell: boolean;
  /** The image cannot load the host's node (no glibc loader or libraries that fit: musl, busybox). */
  node: boolean;
}

export function imageGaps(rootfs: string, needs: ImageNeeds): ImageGaps {
  return {
    shell: !existsInRootfs(rootfs, needs.shellPath),
    node: nodeAbsent(rootfs, needs.node).length > 0,
  };
}

/**
 * Throws a sentence naming each thing the sandbox's server and tools need that the image
 * `reference` (unpacked at `rootfs`) lacks, instead of a sandbox that fails to start for a
 * reason nobody can read. Paths resolve through the image's own symlinks, as inside the sandbox.
 * `host` names what the host's programs stand in for (its bash for a missing shell, its node
 * with its own loader for one the image cannot load); the agent's commands still need the
 * image's /bin/sh.
 */
export function assertImageHasTools(
  reference: string,
  rootfs: string,
  needs: ImageNeeds,
  host: ImageGaps = { shell: false, node: false },
): void {
  const missing: string[] = [];
  const hasSh = existsInRootfs(rootfs, "/bin/sh");
  if (!existsInRootfs(rootfs, needs.shellPath) && !(host.shell && hasSh)) {
    missing.push(
      hasSh
        ? `${needs.shellPath} (it has /bin/sh, but the bash tool's session needs bash)`
        : `a shell at ${needs.shellPath} or /bin/sh (the bash tool's commands, the python tool and handler commands run with it): an image without a shell cannot run the sandbox's tools`,
    );
  }
  if (needs.prlimitPath !== undefined && !existsInRootfs(rootfs, needs.prlimitPath)) {
    missing.push(`${needs.prlimitPath} (util-linux; applies the process limit)`);
  }
  const absent = host.node ? [] : nodeAbsent(rootfs, needs.node);
  if (absent.length > 0)
    missing.push(
      `what the execution server (the host's node) loads: ${absent.join(", ")} (a glibc-based image, as Debian's, Ubuntu's or RHEL's, has them)`,
    );
  if (missing.length > 0) {
    throw new Error(
      `image ${reference} cannot run the sandbox's tools: it lacks ${missing.join("; and ")}. Use an image with a shell (for example a Debian, Ubuntu, Alpine or busybox base), or set the runtime's shellPath to a shell the image has`,
    );
  }
}
