import { type ChildProcess, spawn } from "node:child_process";
import type { LaunchPlan } from "./managed-sandbox.types";

// Joins each cgroup.procs given before `--`, then execs the launcher, so not even bwrap's
// first fork happens outside the sandbox's cgroups.
const JOIN_CGROUPS = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 97; shift; done; shift; exec "$@"';

const STDERR_TAIL_BYTES = 4_096;

/** A started launcher: its process, the end of what it wrote to stderr, and when it closed. */
export interface LaunchedProcess {
  child: ChildProcess;
  /** The last 4 KiB the launcher wrote to stderr (start failures and crashes quote it). */
  stderrTail(): string;
  /** Settles when the process and its stdio have closed. */
  exited: Promise<void>;
}

/** Starts the launcher of `plan` as its uid/gid, inside its cgroups when it has them. */
export function spawnLauncher(plan: LaunchPlan): LaunchedProcess {
  const { command, args, env, uid, gid, cgroup } = plan;
  const argv = cgroup
    ? ["/bin/sh", "-c", JOIN_CGROUPS, "raas-join", ...cgroup.procsFiles, "--", command, ...args]
    : [command, ...args];
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ["pipe", "pipe", "pipe"], env: env ?? {}, uid, gid });
  let tail = "";
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (chunk: string) => {
    tail = (tail + chunk).slice(-STDERR_TAIL_BYTES);
  });
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  return { child, stderrTail: () => tail, exited };
}
