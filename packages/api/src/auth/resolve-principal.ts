import { createHash, timingSafeEqual } from "node:crypto";
import type { ControlPlaneAuthOptions, Principal, TRole } from "./auth.types";

/** Looks a bearer token up in a fixed set of role tokens, in constant time per token. */
export class TokenResolver {
  readonly #digests: Array<{ role: TRole; digest: Buffer }> = [];
  /** Tokens already found valid (one per configured token), to skip hashing per request. */
  readonly #known = new Map<string, Principal>();

  constructor(options: ControlPlaneAuthOptions) {
    const entries: Array<[TRole, string | undefined]> = [
      ["admin", options.adminToken],
      ["trainer", options.trainerToken],
      ["viewer", options.viewerToken],
      ...(options.trainerTokens ?? []).map((token): [TRole, string] => ["trainer", token]),
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
    if (known !== undefined) return known;
    const candidate = digest(token);
    // Compare against every entry so timing does not reveal which role matched.
    let role: TRole | null = null;
    for (const entry of this.#digests) {
      if (timingSafeEqual(entry.digest, candidate) && role === null) role = entry.role;
    }
    if (role === null) return { role: null, token: "invalid" };
    const principal: Principal = { role, token: "valid", tokenId: tokenFingerprint(candidate) };
    this.#known.set(token, principal);
    return principal;
  }
}

/** What a run stores as its owner: enough to tell tokens apart, useless to authenticate with. */
function tokenFingerprint(tokenDigest: Buffer): string {
  return `token:${tokenDigest.toString("hex").slice(0, 16)}`;
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
