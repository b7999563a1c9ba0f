import { defineConfig } from "@playwright/test";

/**
 * End-to-end suite: a real control plane (apps/server, sleep handler) and the production build of
 * apps/web (`next build` once, `next start` per mode), driven by Debian's chromium. Every spec runs
 * in two projects: `embedded` (one server process, in-memory store) and `distributed` (PostgreSQL
 * + Redis, the server API-only and an apps/worker process running every pool). Both run with the
 * settings a user gets — fair share on, its admission window following the worker's slots — but
 * for the worker's pools and a short heartbeat (so a drain lands quickly): see `support/control-plane.ts`.
 * `global-setup.ts` starts both deployments on free ports; tests share them, so they run one at a time.
 */
export default defineConfig({
  testDir: "./tests",
  outputDir: "./test-results",
  globalSetup: "./global-setup.ts",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  projects: [{ name: "embedded" }, { name: "distributed" }],
  forbidOnly: Boolean(process.env.CI),
  use: {
    browserName: "chromium",
    headless: true,
    viewport: { width: 1280, height: 900 },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
});
