import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_SERVER_URL,
  formatIssues,
  MAX_JOB_WAIT_MS,
  ZAllowedHostsVariable,
} from "@raas/shared";
import { z } from "zod";

/**
 * The web app's environment, read once on the server side (the tRPC proxy route). The browser
 * never sees these values: it calls `/api/trpc`, which forwards to `RAAS_SERVER_URL`.
 */
const ZWebEnv = z.object({
  /** Base URL of the RaaS control plane (`apps/server`), whose tRPC API is served at `/trpc`. */
  RAAS_SERVER_URL: z
    .url({
      protocol: /^https?$/,
      error: `RAAS_SERVER_URL must be an http(s) URL, e.g. ${DEFAULT_SERVER_URL}`,
    })
    .default(DEFAULT_SERVER_URL),
  /** Time in ms the proxy waits for the server's response headers. Default 65_000 (longest `jobs.wait` + 5 s). */
  RAAS_PROXY_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(MAX_JOB_WAIT_MS + 5_000),
  /**
   * Largest request body the proxy forwards, in bytes; larger ones get 413 before they are read.
   * The same variable and default (1 MiB) as the server's limit, so `npm start` keeps them equal.
   */
  RAAS_MAX_BODY_BYTES: z.coerce.number().int().positive().max(1_073_741_824).default(DEFAULT_MAX_BODY_BYTES),
  /**
   * Host names the dashboard answers for besides localhost, 127.0.0.1, [::1], IP addresses and
   * the machine's host name; comma-separated, `.domain` for subdomains, `*` for any. Other `Host`
   * headers get 403 (DNS rebinding). Default none.
   */
  RAAS_ALLOWED_HOSTS: ZAllowedHostsVariable,
});
export type TWebEnv = z.infer<typeof ZWebEnv>;

let cached: TWebEnv | undefined;

/** The validated environment; throws a readable message when a variable is malformed. */
export function webEnv(): TWebEnv {
  if (cached) return cached;
  const parsed = ZWebEnv.safeParse(process.env);
  if (!parsed.success) {
    const problems = formatIssues(parsed.error.issues, { root: "environment", maxListed: 20 });
    throw new Error(`invalid environment for apps/web — ${problems}`);
  }
  cached = parsed.data;
  return cached;
}
