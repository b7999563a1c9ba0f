import type { SandboxLimits, SandboxSpec } from "@raas/engine";
import type { LaunchPlan } from "../host/managed-sandbox";
import type { SandboxDirs } from "../host/sandbox-dirs";
import type { ServerBundle } from "../host/server-bundle";
import { BaseRuntime, type InsideLayout, type RuntimeLimitFacts } from "./base-runtime";
import { SANDBOX_PATH, type SandboxRuntimeOptions } from "./runtime-options";

export interface LocalRuntimeOptions extends SandboxRuntimeOptions {
  /**
   * prlimit binary to apply `maxProcesses`. Default `null` (no process limit): without a user
   * namespace RLIMIT_NPROC counts every process of the host user, so a limit sized for one
   * sandbox could stop the developer's own shell from forking.
   */
  prlimitPath?: string | null;
}

export const LOCAL_RUNTIME_WARNING =
  "RaaS LOCAL SANDBOX RUNTIME: NO ISOLATION. Tool calls run as this user on this host, with its network, " +
  "files and secrets. Use it for development only; use the bubblewrap or apptainer runtime for anything else.";

/**
 * Runs the execution server as a plain child process: no namespaces, no filesystem or
 * network isolation. For development on machines without bubblewrap. Never the default;
 * it warns loudly on construction and on every sandbox it creates.
 */
export class LocalRuntime extends BaseRuntime {
  readonly name = "local";
  readonly #prlimitPath: string | null;

  constructor(options: LocalRuntimeOptions = {}) {
    super(options);
    this.#prlimitPath = options.prlimitPath ?? null;
    this.options.warn(LOCAL_RUNTIME_WARNING);
  }

  protected sandboxOwner(): undefined {
    return undefined;
  }

  protected limitFacts(): RuntimeLimitFacts {
    return {
      cgroups: { pids: false, memory: false },
      hasProcessRlimit: this.#prlimitPath !== null,
      shmBytes: null,
      tmpBytes: null,
      toolJail: "off",
    };
  }

  protected insideLayout(dirs: SandboxDirs, bundle: ServerBundle): InsideLayout {
    return { workspace: dirs.workspace, run: dirs.run, pythonDriver: `${bundle.dir}/python-driver.py` };
  }

  protected launchPlan(args: {
    spec: SandboxSpec;
    limits: SandboxLimits;
    dirs: SandboxDirs;
    bundle: ServerBundle;
    encodedConfig: string;
  }): LaunchPlan {
    // The local runtime has no mount namespace: a bind would silently not exist.
    if (args.spec.readOnlyBinds?.length) {
      throw new Error("the local sandbox runtime cannot bind host paths (readOnlyBinds): use bubblewrap");
    }
    this.options.warn(`${LOCAL_RUNTIME_WARNING} (sandbox directory ${args.dirs.root})`);
    const server = [args.bundle.nodePath, `${args.bundle.dir}/exec-server.cjs`, args.encodedConfig];
    const withLimit =
      this.#prlimitPath !== null && args.limits.maxProcesses !== undefined
        ? [this.#prlimitPath, `--nproc=${args.limits.maxProcesses}`, "--", ...server]
        : server;
    return {
      command: withLimit[0]!,
      args: withLimit.slice(1),
      env: { PATH: SANDBOX_PATH, HOME: args.dirs.workspace, NODE_PATH: `${args.bundle.nodePtyDir}/..` },
    };
  }
}
