import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AppRouter } from "@raas/api";
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";

export type RaasClient = ReturnType<typeof createTRPCClient<AppRouter>>;

export interface ClientOptions {
  url: string;
  token: string | undefined;
  dataDir: string;
}

/** The token to send: explicit, else the admin token `npm start` saved for this data directory. */
function resolveToken(options: ClientOptions): string | undefined {
  if (options.token) return options.token;
  const file = join(options.dataDir, "admin-token");
  return existsSync(file) ? readFileSync(file, "utf8").trim() : undefined;
}

export function createClient(options: ClientOptions): RaasClient {
  const token = resolveToken(options);
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${options.url.replace(/\/$/, "")}/trpc`,
        headers: () => (token ? { authorization: `Bearer ${token}` } : {}),
      }),
    ],
  });
}

/** A one-line, human-readable reason for a failed call. */
export function describeError(error: unknown, url: string): string {
  if (error instanceof TRPCClientError) {
    const cause = (error.cause as { code?: string } | undefined)?.code;
    if (cause === "ECONNREFUSED" || /fetch failed|ECONNREFUSED/.test(error.message)) {
      return `cannot reach the RaaS server at ${url} — is it running? Start it with \`npm start\` or pass --url`;
    }
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
