/**
 * The tool jail: every process the agent's tools or a handler's command start runs in a nested
 * user, pid and mount namespace made by a second bwrap inside the sandbox. From there the
 * execution server is out of reach: its pid does not exist in the jail's pid namespace (no kill,
 * no ptrace, no /proc/<pid>/mem), the jail's /proc shows only the jail, and the server's socket
 * directory is hidden. A jail's pid namespace dies with its first process, so a command's
 * daemons and double-forked children are killed whole when the command ends.
 */

/** How the execution server builds jails (passed by the host in the server config). */
export interface ToolJailConfig {
  /** bwrap as seen inside the sandbox. */
  bwrapPath: string;
  /**
   * What runs `bwrapPath`: the host's loader with its libraries (`ld.so --library-path …`) when
   * bwrap is the host's on an image, which may lack what it links. Default none: run directly.
   */
  launcher?: string[];
  /** uid/gid inside the jail (the sandbox's own). */
  uid: number;
  gid: number;
  /** Directories jailed processes must not see (the socket directory, the host-proc mount). */
  hiddenDirs: string[];
  /** Directories inside hidden ones that jailed processes read (the shell's scripts); bound read-only. */
  readOnlyDirs: string[];
  /** Size cap of the private /tmp of each non-interactive command, in bytes. */
  execTmpSizeBytes: number;
}

export interface JailCommandOptions {
  /** Working directory inside the jail. */
  cwd: string;
  /** Workspace root inside the sandbox (bound read-only when `readOnlyWorkspace`). */
  workspaceRoot: string;
  /**
   * An interactive session keeps the caller's terminal session (a shell needs its controlling
   * terminal and shares the sandbox's /tmp); a command gets a new session and a private /tmp.
   */
  interactive: boolean;
  readOnlyWorkspace?: boolean;
}

/** Size of the tmpfs that hides a directory from jailed processes, in bytes (one page). */
const HIDING_TMPFS_BYTES = 4096;

/** The argv that runs `argv` inside a fresh jail. */
export function jailArgv(
  jail: ToolJailConfig,
  argv: readonly string[],
  options: JailCommandOptions,
): string[] {
  const args = [
    ...(jail.launcher ?? []),
    jail.bwrapPath,
    "--unshare-user",
    "--unshare-pid",
    "--die-with-parent",
    "--uid",
    String(jail.uid),
    "--gid",
    String(jail.gid),
    "--bind",
    "/",
    "/",
    // No user namespace below this one: in its own, a tool could mount a tmpfs of any size (half
    // the host's memory by default) that no limit of the sandbox sees.
    "--disable-userns",
    "--proc",
    "/proc",
    "--dev",
    "/dev",
    // bwrap's /dev is a tmpfs of no set size owned by the jail's uid: read-only, or it is one.
    // The remount is not recursive, so the device nodes, /dev/pts and the /dev/shm below stay.
    "--remount-ro",
    "/dev",
    // The sandbox's own size-capped /dev/shm, shared by every jail of the sandbox.
    "--bind",
    "/dev/shm",
    "/dev/shm",
  ];
  if (!options.interactive) {
    args.push("--new-session", "--size", String(jail.execTmpSizeBytes), "--tmpfs", "/tmp");
  }
  // A hiding tmpfs belongs to the jail's uid too: one page, read-only once its mount points exist.
  for (const dir of jail.hiddenDirs) args.push("--size", String(HIDING_TMPFS_BYTES), "--tmpfs", dir);
  for (const dir of jail.readOnlyDirs) args.push("--ro-bind", dir, dir);
  for (const dir of jail.hiddenDirs) args.push("--remount-ro", dir);
  if (options.readOnlyWorkspace) args.push("--ro-bind", options.workspaceRoot, options.workspaceRoot);
  args.push("--chdir", options.cwd, "--", ...argv);
  return args;
}

/** Whether tools run jailed in this sandbox, and why not when they do not. */
export interface JailStatus {
  toolJail: boolean;
  detail?: string;
}

/**
 * Starts one jail running `/bin/true` and reports whether it worked: the kernel may forbid
 * nested user namespaces, or a /proc may not be mountable. Without a working jail tools still
 * run (in the server's namespaces), and the sandbox says so in its health.
 */
export function probeJail(
  jail: ToolJailConfig | undefined,
  workspaceRoot: string,
  run: (argv: string[]) => { status: number | null; stderr: string },
): JailStatus {
  if (!jail) return { toolJail: false, detail: "this runtime has no tool jail" };
  const argv = jailArgv(jail, ["/bin/true"], { cwd: workspaceRoot, workspaceRoot, interactive: false });
  const result = run(argv);
  if (result.status === 0) return { toolJail: true };
  return {
    toolJail: false,
    detail: `the tool jail cannot start: ${result.stderr.trim() || `exit ${result.status}`}`,
  };
}
