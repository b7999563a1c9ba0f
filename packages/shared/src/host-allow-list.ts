/**
 * `Host` header checks against DNS rebinding: a page on an attacker's domain that re-resolves to
 * 127.0.0.1 reaches a local server with `Host: attacker.example`. Only names the operator
 * configured are served. IP literals are always accepted (a rebinding page cannot make the
 * browser send one), as are `localhost` and `*.localhost` (they never leave the machine).
 */

import { z } from "zod";

/** Names every server accepts whatever is configured. */
export const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"] as const;

/** Bind addresses that mean "every interface". */
const ALL_INTERFACES = new Set(["0.0.0.0", "::", "[::]"]);

/**
 * The names a server bound to `bindHost` accepts by default: the loopback names, plus the
 * machine's host name (and its first label) when bound to every interface, or the bind address
 * itself when it is a name.
 */
export function defaultAllowedHosts(bindHost: string, machineHostname: string): string[] {
  const hosts: string[] = [...LOOPBACK_HOSTS];
  const bind = bindHost.trim().toLowerCase();
  if (ALL_INTERFACES.has(bind)) {
    const machine = machineHostname.trim().toLowerCase();
    if (machine) hosts.push(machine, machine.split(".")[0]!);
  } else if (bind && !hosts.includes(bind)) {
    hosts.push(bind);
  }
  return [...new Set(hosts)];
}

/**
 * Parses an allow-list such as `RAAS_ALLOWED_HOSTS`: comma-separated names, `.example.org` for a
 * domain and its subdomains, `*` for any host (no check). Returns the problems as sentences.
 */
export function parseAllowedHosts(text: string): { hosts: string[]; problems: string[] } {
  const hosts: string[] = [];
  const problems: string[] = [];
  for (const raw of text.split(",")) {
    const entry = raw.trim().toLowerCase();
    if (entry.length === 0) continue;
    if (
      entry === "*" ||
      /^\.?[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?$/.test(entry) ||
      /^\[[0-9a-f:.]+\]$/.test(entry)
    ) {
      hosts.push(entry);
    } else {
      problems.push(
        `"${raw.trim()}": expected a host name without port or scheme (e.g. raas.example.org), .domain, or *`,
      );
    }
  }
  return { hosts, problems };
}

/**
 * `RAAS_ALLOWED_HOSTS` as an env.ts field (server and dashboard alike): the parsed list, each
 * bad entry a validation issue. Unset or empty: no extra names.
 */
export const ZAllowedHostsVariable = z
  .string()
  .optional()
  .transform((text, ctx): string[] => {
    const { hosts, problems } = parseAllowedHosts(text ?? "");
    for (const problem of problems) ctx.addIssue({ code: "custom", message: problem });
    return hosts;
  });

/** The host name of a `Host` header, lower-cased, without the port (`[::1]:80` → `[::1]`). */
export function hostNameOf(hostHeader: string): string {
  const host = hostHeader.trim().toLowerCase();
  if (host.startsWith("[")) {
    const end = host.indexOf("]");
    return end === -1 ? host : host.slice(0, end + 1);
  }
  const colon = host.indexOf(":");
  return (colon === -1 ? host : host.slice(0, colon)).replace(/\.$/, "");
}

function isIpLiteral(name: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(name) || /^\[[0-9a-f:.]+\]$/.test(name);
}

/** True when a request with this `Host` header may be served (see the module comment). */
export function isHostAllowed(hostHeader: string | undefined, allowed: readonly string[]): boolean {
  if (allowed.includes("*")) return true;
  if (hostHeader === undefined || hostHeader.trim().length === 0) return false;
  const name = hostNameOf(hostHeader);
  if (isIpLiteral(name) || name === "localhost" || name.endsWith(".localhost")) return true;
  return allowed.some((entry) =>
    entry.startsWith(".") ? name === entry.slice(1) || name.endsWith(entry) : name === entry,
  );
}

/** The sentence a refused request gets. */
export function hostRefusedMessage(hostHeader: string | undefined, allowed: readonly string[]): string {
  const shown = hostHeader ? JSON.stringify(hostNameOf(hostHeader).slice(0, 100)) : "(none)";
  return `this server does not answer for host ${shown}; it accepts ${allowed.join(", ")} and IP addresses — add the name to RAAS_ALLOWED_HOSTS if it is yours`;
}
