import { createHash, timingSafeEqual } from "node:crypto";
import type { ControlPlaneAuthOptions, Principal, TRole } from "./auth.types";

/** Looks a bearer token up in a fixed set of role tokens, in constant time per token. */
export class TokenResolver {
  readonly #digests: Array<{ role: TRole; digest: Buffer }> = [];
  /** Tokens already found valid (at most three distinct ones exist), to skip hashing per request. */
  readonly #known = new Map<string, TRole>();

  constructor(options: ControlPlaneAuthOptions) {
    const entries: Array<[TRole, string | undefined]> = [
      ["admin", options.adminToken],
      ["trainer", options.trainerToken],
      ["viewer", options.viewerToken],
    ];
    for (const [role, token] of entries) {
      if (token !== undefined && token.length > 0) this.#digests.push({ role, digest: digest(token) });
    }
  }

  /** True when at least one token that may mutate (admin or trainer) is configured. */
  get hasWriterToken(): boolean {
    return this.#digests.some((entry) => entry.role !== "viewer");
  }

  /** The principal of a request, from its `Authorization` header or a connection-param token. */
  resolve(authorization: string | undefined | null, paramToken?: string | null): Principal {
    const token = extractToken(authorization) ?? (paramToken || null);
    if (token === null) return { role: null, token: "none" };
    const known = this.#known.get(token);
    if (known !== undefined) return { role: known, token: "valid" };
    const candidate = digest(token);
    // Compare against every entry so timing does not reveal which role matched.
    let role: TRole | null = null;
    for (const entry of this.#digests) {
      if (timingSafeEqual(entry.digest, candidate) && role === null) role = entry.role;
    }
    if (role === null) return { role: null, token: "invalid" };
    this.#known.set(token, role);
    return { role, token: "valid" };
  }
}

function digest(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

function extractToken(header: string | undefined | null): string | null {
  if (!header) return null;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  // A malformed header counts as a token that matches nothing, so the caller hears "invalid".
  return match?.[1] ?? header.trim();
}
