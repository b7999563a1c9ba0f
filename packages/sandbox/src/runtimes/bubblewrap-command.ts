/** Everything the bwrap command line depends on; pure data so the builder is unit-testable. */
export interface BubblewrapCommandInput {
  bwrapPath: string;
  /** Root filesystem: `"host"` binds the host's /usr and friends read-only; otherwise a rootfs directory. */
  rootfs: "host" | string;
  /** Top-level entries of `rootfs` (for a rootfs directory): `dir` is bound, `symlink` recreated. */
  rootfsEntries: Array<{ name: string; kind: "dir" | "symlink"; target?: string }>;
  /** Host /etc files bound read-only when `rootfs` is the host (missing ones are skipped). */
  hostEtcFiles: string[];
  workspaceHostDir: string;
  runHostDir: string;
  serverHostDir: string;
  nodePtyHostDir: string;
  nodeHostPath: string;
  /**
   * Arguments between `BWRAP_INSIDE.node` and the server script: with the host's loader bound
   * there, `--library-path … <the host's node>` (see `host-programs.ts`). Default none.
   */
  nodeArgs?: string[];
  /** The host's node and bash with their loader and libraries, bound at `BWRAP_INSIDE.hostPrograms`. */
  hostProgramsHostDir?: string;
  /** Host paths bound read-only at their sandbox paths (the spec's `readOnlyBinds`). */
  readOnlyBinds?: ReadonlyArray<{ hostPath: string; sandboxPath: string }>;
  /** Execute-only copy of bash for the agent's shell (bound at `BWRAP_INSIDE.bash`); omitted = none. */
  bashHostPath?: string;
  /**
   * Host tools (bwrap, prlimit with the host's loader and libraries; see `host-tools.ts`), bound
   * at `BWRAP_INSIDE.hostTools` for a sandbox on an image; omitted = none bound.
   */
  hostToolsHostDir?: string;
  /**
   * Bind the host's /proc at `BWRAP_INSIDE.hostProc`, where only the execution server sees it: a
   * nested user namespace may mount a new /proc only while a fully visible one exists, and the
   * sandbox's own /proc is partly covered by bwrap. The tool jail hides it again.
   */
  bindHostProc: boolean;
  /**
   * Forbid user namespaces below the sandbox's (`--disable-userns`). Only when no tool jail runs
   * there: the jail is one. Without it a tool could make its own and mount a tmpfs of any size.
   */
  disableUserNamespaces: boolean;
  /** Size of the sandbox's private /tmp in bytes. */
  tmpSizeBytes: number;
  /** Size of the sandbox's /dev/shm in bytes. */
  shmSizeBytes: number;
  /** uid/gid inside the sandbox. */
  insideUid: number;
  insideGid: number;
  env: Record<string, string>;
  /** RLIMIT_NPROC for everything inside; applied by prlimit after the user namespace exists. */
  maxProcesses?: number;
  prlimitPath: string;
  /** How to run prlimit when not `prlimitPath` directly (the host's through its loader). */
  prlimitArgv?: readonly string[];
  serverArgs: string[];
}

export const BWRAP_INSIDE = {
  workspace: "/workspace",
  run: "/run/raas",
  serverDir: "/opt/raas/server",
  nodePty: "/opt/raas/node_modules/node-pty",
  node: "/opt/raas/bin/node",
  bash: "/opt/raas/bin/bash",
  hostProc: "/opt/raas/proc",
  /** The host tools (see `host-tools.ts`). */
  hostTools: "/opt/raas/host",
  /** The host's node and bash for images that cannot run their own (see `host-programs.ts`). */
  hostPrograms: "/opt/raas/host-programs",
} as const;

/**
 * Builds the bwrap argv. The root is bwrap's own tmpfs with selected read-only binds (a
 * read-only `/` bind would forbid new top-level mount points such as /workspace). All
 * namespaces are unshared (no network but loopback, own pids); --die-with-parent ties the
 * sandbox's life to the host process.
 */
export function buildBubblewrapArgs(input: BubblewrapCommandInput): string[] {
  const args = ["--unshare-all", "--die-with-parent", "--new-session", "--hostname", "sandbox"];
  // --unshare-all only tries the user namespace; --disable-userns needs it asked for outright.
  if (input.disableUserNamespaces) args.push("--unshare-user", "--disable-userns");
  if (input.rootfs === "host") {
    for (const entry of input.rootfsEntries) {
      if (entry.kind === "symlink") args.push("--symlink", entry.target ?? "", `/${entry.name}`);
      else args.push("--ro-bind", `/${entry.name}`, `/${entry.name}`);
    }
    for (const file of input.hostEtcFiles) args.push("--ro-bind-try", file, file);
  } else {
    for (const entry of input.rootfsEntries) {
      if (entry.kind === "symlink") args.push("--symlink", entry.target ?? "", `/${entry.name}`);
      else args.push("--ro-bind", `${input.rootfs}/${entry.name}`, `/${entry.name}`);
    }
  }
  args.push("--proc", "/proc", "--dev", "/dev");
  args.push("--size", String(input.shmSizeBytes), "--tmpfs", "/dev/shm");
  args.push("--size", String(input.tmpSizeBytes), "--tmpfs", "/tmp");
  // bwrap's /dev is a tmpfs of no set size that the sandbox's uid owns (half the host's memory):
  // read-only. Not recursive: the device nodes, /dev/pts and /dev/shm below it stay as they are.
  args.push("--remount-ro", "/dev");
  args.push("--bind", input.workspaceHostDir, BWRAP_INSIDE.workspace);
  args.push("--bind", input.runHostDir, BWRAP_INSIDE.run);
  args.push("--ro-bind", input.serverHostDir, BWRAP_INSIDE.serverDir);
  args.push("--ro-bind", input.nodePtyHostDir, BWRAP_INSIDE.nodePty);
  args.push("--ro-bind", input.nodeHostPath, BWRAP_INSIDE.node);
  if (input.bashHostPath !== undefined) args.push("--ro-bind", input.bashHostPath, BWRAP_INSIDE.bash);
  if (input.hostToolsHostDir !== undefined)
    args.push("--ro-bind", input.hostToolsHostDir, BWRAP_INSIDE.hostTools);
  if (input.hostProgramsHostDir !== undefined)
    args.push("--ro-bind", input.hostProgramsHostDir, BWRAP_INSIDE.hostPrograms);
  for (const bind of input.readOnlyBinds ?? []) args.push("--ro-bind", bind.hostPath, bind.sandboxPath);
  if (input.bindHostProc) args.push("--bind", "/proc", BWRAP_INSIDE.hostProc);
  // Everything outside the binds above (the root tmpfs, /etc, mount points) becomes read-only.
  args.push("--remount-ro", "/");
  args.push("--chdir", BWRAP_INSIDE.workspace);
  args.push("--uid", String(input.insideUid), "--gid", String(input.insideGid));
  args.push("--clearenv");
  for (const [key, value] of Object.entries(input.env)) args.push("--setenv", key, value);
  args.push("--");
  if (input.maxProcesses !== undefined) {
    args.push(...(input.prlimitArgv ?? [input.prlimitPath]), `--nproc=${input.maxProcesses}`, "--");
  }
  args.push(
    BWRAP_INSIDE.node,
    ...(input.nodeArgs ?? []),
    `${BWRAP_INSIDE.serverDir}/exec-server.cjs`,
    ...input.serverArgs,
  );
  return args;
}
