import { test } from "@playwright/test";

/** Known tokens of the servers the suite starts. Never used outside tests. */
export const E2E_TOKENS = {
  admin: "e2e-admin-token",
  trainer: "e2e-trainer-token",
  viewer: "e2e-viewer-token",
} as const;

/** The deployments every spec runs against; each is a Playwright project of the same name. */
export const E2E_MODES = ["embedded", "distributed"] as const;
export type E2EMode = (typeof E2E_MODES)[number];

/** The variables global setup sets for `mode` (passed to test workers by env). */
export function e2eUrlVariables(mode: E2EMode): { server: string; web: string } {
  const upper = mode.toUpperCase();
  return { server: `RAAS_E2E_${upper}_SERVER_URL`, web: `RAAS_E2E_${upper}_WEB_URL` };
}

/** Where global setup put the server and the dashboard of the running test's project (its mode). */
export function e2eUrls(): { serverUrl: string; webUrl: string } {
  const names = e2eUrlVariables(e2eMode());
  const serverUrl = process.env[names.server];
  const webUrl = process.env[names.web];
  if (!serverUrl || !webUrl) {
    throw new Error(`${names.server}/${names.web} are unset; run the suite with \`npm run test:e2e\``);
  }
  return { serverUrl, webUrl };
}

/** The mode of the running test's project. */
export function e2eMode(): E2EMode {
  const mode = test.info().project.name as E2EMode;
  if (!E2E_MODES.includes(mode))
    throw new Error(`unknown e2e project "${mode}": expected ${E2E_MODES.join(", ")}`);
  return mode;
}
