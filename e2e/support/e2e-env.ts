/** Known tokens of the server the suite starts. Never used outside tests. */
export const E2E_TOKENS = {
  admin: "e2e-admin-token",
  trainer: "e2e-trainer-token",
  viewer: "e2e-viewer-token",
} as const;

/** Where global setup put the server and the dashboard (passed to test workers by env). */
export function e2eUrls(): { serverUrl: string; webUrl: string } {
  const serverUrl = process.env.RAAS_E2E_SERVER_URL;
  const webUrl = process.env.RAAS_E2E_WEB_URL;
  if (!serverUrl || !webUrl) {
    throw new Error("RAAS_E2E_SERVER_URL/RAAS_E2E_WEB_URL are unset; run the suite with `npm run test:e2e`");
  }
  return { serverUrl, webUrl };
}
