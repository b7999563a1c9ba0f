import { requestFailure } from "@raas/shared";
import type { ControlPlaneContext } from "../../context";
import type { ControlPlaneEnvironments, EnvironmentRecord } from "../../environments.port";

/** The context's environment registry, or a 503 that says why there is none. */
export function requireEnvironments(ctx: ControlPlaneContext): ControlPlaneEnvironments {
  if (ctx.environments) return ctx.environments;
  throw requestFailure(
    "UNAVAILABLE",
    "this server runs without an environment registry, so it cannot register or list environments; start it with one (apps/server always builds one)",
  );
}

/** The environment of this name, or a 404 that names it. */
export async function requireEnvironment(
  environments: ControlPlaneEnvironments,
  name: string,
): Promise<EnvironmentRecord> {
  const environment = await environments.store.get(name);
  if (environment) return environment;
  throw requestFailure(
    "NOT_FOUND",
    `no environment named "${name}"; register it with environments.register (POST /api/v1/environments) first`,
    { details: { name } },
  );
}
