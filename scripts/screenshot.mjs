// Refreshes the README's picture of the dashboard (docs/dashboard.png): the Runs page of a running
// `npm start` with its demo data — the demo's training runs overlaid — in Debian's chromium at
// 1280 × 860, through Playwright.
//   npm start            (in another terminal; wait for "[demo] done")
//   node scripts/screenshot.mjs [--web URL] [--api URL] [--out FILE] [--page runs|overview]
// Defaults: --web http://127.0.0.1:$WEB_PORT (3000), --api http://127.0.0.1:$PORT (8080),
// --out docs/dashboard.png, --page runs. CHROMIUM overrides the browser (default /usr/bin/chromium).
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values } = parseArgs({
  options: {
    web: { type: "string", default: `http://127.0.0.1:${process.env.WEB_PORT ?? "3000"}` },
    api: { type: "string", default: `http://127.0.0.1:${process.env.PORT ?? "8080"}` },
    out: { type: "string", default: join(root, "docs/dashboard.png") },
    page: { type: "string", default: "runs" },
  },
});
if (!["runs", "overview"].includes(values.page)) {
  console.error(`--page must be runs or overview, got "${values.page}"`);
  process.exit(2);
}

/** The runs to overlay: the demo's (run keys demo-*), else the newest three. */
async function runsToShow() {
  const response = await fetch(`${values.api}/api/v1/runs?limit=50`).catch(() => null);
  if (!response?.ok) {
    console.error(`cannot read ${values.api}/api/v1/runs — is \`npm start\` running? (--api URL)`);
    process.exit(1);
  }
  const { items } = await response.json();
  const demo = items.filter((run) => run.runKey?.startsWith("demo-") && run.stepCount > 0);
  const chosen = (demo.length > 0 ? demo : items).slice(0, 3);
  if (chosen.length === 0) {
    console.error("the server has no training runs yet; let the demo run (npm start without --no-demo)");
    process.exit(1);
  }
  return chosen.map((run) => run.id);
}

const path = values.page === "runs" ? `/runs?runs=${(await runsToShow()).join(",")}` : "/";
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(`${values.web}${path}`, { waitUntil: "networkidle", timeout: 120_000 });
  // Every section has its data (no loading state left) and the charts have drawn their lines.
  await page
    .getByTestId("state-loading")
    .first()
    .waitFor({ state: "detached", timeout: 60_000 })
    .catch(() => {});
  if (values.page === "runs")
    await page.locator(".recharts-line").first().waitFor({ state: "attached", timeout: 60_000 });
  await page.waitForTimeout(1_000); // chart animations settle
  await page.screenshot({ path: values.out });
  console.log(`wrote ${values.out} (${values.web}${path})`);
} finally {
  await browser.close();
}
