import type { AppRouter } from "@raas/api";
import type { inferRouterOutputs } from "@trpc/server";

/** A registered environment as the browser receives it. */
export type TEnvironmentView = inferRouterOutputs<AppRouter>["environments"]["get"]["environment"];

/** `5 / 5 pass`, `4 / 5 pass · 1 fail`; `not checked` before any oracle check. */
export function oracleText(environment: TEnvironmentView): string {
  const { oracle } = environment;
  if (oracle === null) return "not checked";
  const total = oracle.passed + oracle.failed + oracle.skipped;
  const parts = [`${oracle.passed} / ${total} pass`];
  if (oracle.failed > 0) parts.push(`${oracle.failed} fail`);
  if (oracle.skipped > 0) parts.push(`${oracle.skipped} skipped`);
  return parts.join(" · ");
}
