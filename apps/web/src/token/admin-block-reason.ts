import { assertNever } from "../lib/domain";
import type { TTokenAccess } from "./probe-token-role";

/**
 * Why an admin-only action is disabled, or null when it may be pressed. `action` names it as the
 * start of a sentence, e.g. "Draining a backend".
 */
export function adminBlockReason(access: TTokenAccess | { kind: "checking" }, action: string): string | null {
  switch (access.kind) {
    case "admin":
      return null;
    case "none":
      return `${action} needs the admin token. Enter it in the token box at the top right.`;
    case "checking":
      return "Checking the token…";
    case "not-admin":
      return `${action} needs the admin token; the token in use is not it (${access.reason}).`;
    case "invalid":
      return `The server does not accept this token (${access.reason}). Enter the admin token.`;
    case "unknown":
      return `Could not check the token: ${access.reason}`;
    default:
      return assertNever(access, "token access");
  }
}
