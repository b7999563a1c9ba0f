import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { TRPCClientError } from "@trpc/client";
import type { RaasClient } from "../client";

/** A usage mistake the command reports in one line with exit status 2 (an unknown environment). */
export class EvalEnvUsageError extends Error {}

/** The environment `raas eval env` evaluates: a registered one (by name) or a directory here. */
export interface EvalEnvTarget {
  /** The directory its tasks are read from (on this machine). */
  dir: string;
  /** The registered name, or null for a directory given by path. */
  registeredName: string | null;
}

const isNotFound = (error: unknown) =>
  error instanceof TRPCClientError && (error.data as { code?: string } | undefined)?.code === "NOT_FOUND";

/**
 * A path that exists is a directory to read; anything else is the name of a registered
 * environment, resolved through `environments.get` (its directory must be readable here too).
 */
export async function resolveEvalEnvTarget(client: RaasClient, target: string): Promise<EvalEnvTarget> {
  if (existsSync(target)) return { dir: resolve(target), registeredName: null };
  let environment: Awaited<ReturnType<RaasClient["environments"]["get"]["query"]>>["environment"];
  try {
    ({ environment } = await client.environments.get.query({ name: target }));
  } catch (error) {
    if (!isNotFound(error)) throw error;
    const { environments } = await client.environments.list.query();
    const names = environments.map((one) => one.name);
    throw new EvalEnvUsageError(
      `no environment named "${target}" and no such directory; ${
        names.length === 0
          ? "none is registered (raas env register <dir>)"
          : `registered: ${names.join(", ")}`
      }`,
    );
  }
  if (!existsSync(environment.path))
    throw new Error(
      `environment ${environment.name} is registered at ${environment.path}, which this machine cannot read; run raas eval env where it can, or give a copy's directory`,
    );
  return { dir: environment.path, registeredName: environment.name };
}
