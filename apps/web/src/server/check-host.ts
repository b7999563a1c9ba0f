import { hostname } from "node:os";
import { defaultAllowedHosts, hostRefusedMessage, isHostAllowed } from "@raas/shared";

/**
 * The names the dashboard answers for: the loopback names, the machine's host name (`next start`
 * may bind every interface) and `extra` (RAAS_ALLOWED_HOSTS); IP addresses always.
 */
export function dashboardAllowedHosts(extra: readonly string[]): string[] {
  return [...defaultAllowedHosts("0.0.0.0", hostname()), ...extra];
}

/** Null when the `Host` header may be served, else the 403 to answer (DNS rebinding). */
export function refuseForeignHost(hostHeader: string | null, allowed: readonly string[]): Response | null {
  const host = hostHeader ?? undefined;
  if (isHostAllowed(host, allowed)) return null;
  return new Response(`${hostRefusedMessage(host, allowed)}\n`, {
    status: 403,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}
