"use client";

import { assertNever } from "../lib/domain";
import { useTokenAccess } from "../token/use-token-access";

/** A short label of what the entered token may do. */
export function TokenStatus() {
  const access = useTokenAccess();
  return (
    <span className={`token-status token-${access.kind}`} data-testid="token-status" title={titleOf(access)}>
      {labelOf(access.kind)}
    </span>
  );
}

function labelOf(kind: ReturnType<typeof useTokenAccess>["kind"]): string {
  switch (kind) {
    case "none":
      return "read-only (no token)";
    case "checking":
      return "checking token…";
    case "admin":
      return "admin token";
    case "not-admin":
      return "token: not admin";
    case "invalid":
      return "token not accepted";
    case "unknown":
      return "token status unknown";
    default:
      return assertNever(kind, "token access");
  }
}

function titleOf(access: ReturnType<typeof useTokenAccess>): string {
  return "reason" in access ? access.reason : "";
}
