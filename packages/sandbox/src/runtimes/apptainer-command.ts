/** Inputs of the apptainer/singularity command line; pure data for unit tests. */
export interface ApptainerCommandInput {
  /** Path of the image (.sif or sandbox directory). */
  image: string;
  workspaceHostDir: string;
  runHostDir: string;
  serverHostDir: string;
  /** Host node-pty to bind; unset when the image ships its own (built for its libc). */
  nodePtyHostDir?: string;
  /** Node binary inside the image. */
  nodeInsidePath: string;
  /** Host paths bound read-only at their sandbox paths (the spec's `readOnlyBinds`). */
  readOnlyBinds?: ReadonlyArray<{ hostPath: string; sandboxPath: string }>;
  /** `--net --network none`; clusters that forbid unprivileged network namespaces need false. */
  isolateNetwork: boolean;
  env: Record<string, string>;
  maxProcesses?: number;
  prlimitPath: string;
  serverArgs: string[];
}

export const APPTAINER_INSIDE = {
  workspace: "/workspace",
  run: "/run/raas",
  serverDir: "/opt/raas/server",
  nodePty: "/opt/raas/node_modules/node-pty",
} as const;

/**
 * `exec` with --containall (own pid/ipc namespaces, clean env, no host /home or /tmp),
 * --no-home, a throwaway writable overlay, binds for the workspace, the socket directory and
 * the server bundle, and network isolation where the site permits it.
 */
export function buildApptainerArgs(input: ApptainerCommandInput): string[] {
  const args = ["exec", "--containall", "--no-home", "--writable-tmpfs", "--cleanenv"];
  if (input.isolateNetwork) args.push("--net", "--network", "none");
  args.push("--pwd", APPTAINER_INSIDE.workspace);
  args.push("--bind", `${input.workspaceHostDir}:${APPTAINER_INSIDE.workspace}`);
  args.push("--bind", `${input.runHostDir}:${APPTAINER_INSIDE.run}`);
  args.push("--bind", `${input.serverHostDir}:${APPTAINER_INSIDE.serverDir}:ro`);
  if (input.nodePtyHostDir !== undefined) {
    args.push("--bind", `${input.nodePtyHostDir}:${APPTAINER_INSIDE.nodePty}:ro`);
  }
  for (const bind of input.readOnlyBinds ?? [])
    args.push("--bind", `${bind.hostPath}:${bind.sandboxPath}:ro`);
  for (const [key, value] of Object.entries(input.env)) args.push("--env", `${key}=${value}`);
  args.push(input.image);
  if (input.maxProcesses !== undefined) args.push(input.prlimitPath, `--nproc=${input.maxProcesses}`, "--");
  args.push(input.nodeInsidePath, `${APPTAINER_INSIDE.serverDir}/exec-server.cjs`, ...input.serverArgs);
  return args;
}
