import type { TJobStatus } from "@raas/shared";
import { assertNever } from "../../lib/domain";
import type { TTokenAccess } from "../../token/probe-token-role";

/** Why the cancel button is disabled, or null when it may be pressed. */
export function cancelBlockReason(
  access: TTokenAccess | { kind: "checking" },
  terminalStatus: TJobStatus | null,
): string | null {
  if (terminalStatus !== null) return `The job is already ${terminalStatus}; there is nothing to cancel.`;
  switch (access.kind) {
    case "admin":
      return null;
    case "none":
      return "Cancelling needs the admin token. Enter it in the token box at the top right.";
    case "checking":
      return "Checking the token…";
    case "not-admin":
      return `The token in use is not the admin token (${access.reason}).`;
    case "invalid":
      return `The server does not accept this token (${access.reason}). Enter the admin token.`;
    case "unknown":
      return `Could not check the token: ${access.reason}`;
    default:
      return assertNever(access, "token access");
  }
}
