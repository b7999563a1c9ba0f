import { ApptainerRuntime, type ApptainerRuntimeOptions } from "./apptainer-runtime";
import type { BaseRuntime } from "./base-runtime";
import { BubblewrapRuntime, type BubblewrapRuntimeOptions } from "./bubblewrap-runtime";
import { findExecutable } from "./find-executable";
import { LocalRuntime, type LocalRuntimeOptions } from "./local-runtime";

type SandboxRuntimeKind = "auto" | "bubblewrap" | "apptainer" | "local";

export interface CreateSandboxRuntimeOptions
  extends BubblewrapRuntimeOptions,
    Omit<ApptainerRuntimeOptions, "prlimitPath">,
    Omit<LocalRuntimeOptions, "prlimitPath"> {
  /** Which runtime; `auto` picks apptainer/singularity when installed, else bubblewrap. Default `auto`. */
  kind?: SandboxRuntimeKind;
  /** Colon-separated directories to look for binaries in (the app passes its PATH). */
  searchPath: string;
}

/**
 * Chooses a runtime for a composition root. `auto` never chooses `local`: a machine with
 * neither apptainer nor bwrap is an error with an install hint, not a silent downgrade.
 */
export function createSandboxRuntime(options: CreateSandboxRuntimeOptions): BaseRuntime {
  const { kind = "auto", searchPath, ...rest } = options;
  const apptainer = findExecutable("apptainer", searchPath) ?? findExecutable("singularity", searchPath);
  const bwrap = findExecutable("bwrap", searchPath);
  switch (kind) {
    case "apptainer":
      return new ApptainerRuntime({ ...rest, binaryPath: rest.binaryPath ?? apptainer ?? "apptainer" });
    case "bubblewrap":
      return new BubblewrapRuntime({ ...rest, bwrapPath: rest.bwrapPath ?? bwrap ?? "bwrap" });
    case "local":
      return new LocalRuntime(rest);
    case "auto":
      if (apptainer) return new ApptainerRuntime({ ...rest, binaryPath: rest.binaryPath ?? apptainer });
      if (bwrap) return new BubblewrapRuntime({ ...rest, bwrapPath: rest.bwrapPath ?? bwrap });
      throw new Error(
        "no sandbox runtime found: install bubblewrap (`apt-get install -y bubblewrap`) or apptainer, or choose kind 'local' for development",
      );
  }
}
