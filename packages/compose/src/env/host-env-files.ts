import { loadSweRepoSpecs, type SweRepoSpec } from "@raas/handlers";
import type { TRolloutHostEnv } from "./host-env";
import { EnvError } from "./parse-env";

/** Contents of the files the environment names, read once at start. */
export interface HostEnvFiles {
  /** From `RAAS_SWE_SPECS_FILE`. */
  sweRepoSpecs?: Record<string, SweRepoSpec>;
}

/**
 * Reads and validates the files the environment names. A missing or invalid file is an
 * `EnvError` of one line naming the variable and the file.
 */
export async function loadHostEnvFiles(
  env: Pick<TRolloutHostEnv, "RAAS_SWE_SPECS_FILE">,
): Promise<HostEnvFiles> {
  if (env.RAAS_SWE_SPECS_FILE === undefined) return {};
  try {
    return { sweRepoSpecs: await loadSweRepoSpecs(env.RAAS_SWE_SPECS_FILE) };
  } catch (error) {
    // The loader's message starts with the file's path and names the key and field of a mistake.
    const reason = (error as Error).message.replace(/\s+/g, " ").trim();
    throw new EnvError(`invalid environment: RAAS_SWE_SPECS_FILE: ${reason}`);
  }
}
