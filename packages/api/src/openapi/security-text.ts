import { ROLES } from "../auth/auth.types";
import type { RestRoute } from "../rest/rest-route.types";

/** The bearer scheme's description: how roles nest, how to get a token, which operation needs which role. */
export function securitySchemeText(routes: readonly RestRoute[]): string {
  const byRole = (role: string) =>
    routes
      .filter((route) => route.access === role)
      .map((route) => route.operationId)
      .join(", ");
  const lines = [...ROLES].reverse().map((role) => `- **${role}**: ${byRole(role) || "(none)"}`);
  return [
    "Send `Authorization: Bearer <token>`. Roles nest: viewer < trainer < admin (a token may do everything the roles below it may).",
    "Reads need a viewer token only when the server requires one (`RAAS_REQUIRE_VIEWER_TOKEN`); otherwise they are open.",
    "Getting a token: `npm start` generates an admin token and writes it to `.raas/admin-token` (mode 0600) in the data directory; or set `RAAS_ADMIN_TOKEN`, `RAAS_TRAINER_TOKEN` and `RAAS_VIEWER_TOKEN` before starting the server.",
    "",
    "Least role of each operation:",
    `- **none** (no token): ${byRole("public") || "(none)"}`,
    ...lines,
  ].join("\n");
}
