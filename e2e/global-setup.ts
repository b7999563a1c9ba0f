import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureWebBuild, nextBin } from "../scripts/web-build.mjs";
import { startProcess, waitForHttp } from "./support/child-process";
import { type ControlPlane, startControlPlane } from "./support/control-plane";
import { E2E_MODES, type E2EMode, e2eUrlVariables } from "./support/e2e-env";
import { freePort } from "./support/free-port";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * Builds the dashboard once, then starts one deployment per mode (embedded, distributed) — each a
 * control plane and the dashboard's production build against it, on free ports — and tells the
 * test workers where they are. Returns the teardown, which stops and removes them all.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const built = ensureWebBuild(root, {
    force: Boolean(process.env.RAAS_E2E_REBUILD),
    log: (line) => process.stderr.write(`[e2e] ${line}\n`),
  });
  if (!built) throw new Error("next build failed; see its output above");

  const started: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    await Promise.all(started.map((stop) => stop()));
  };
  const results = await Promise.allSettled(E2E_MODES.map((mode) => startDeployment(mode, started)));
  const failed = results.find((result) => result.status === "rejected");
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  return stopAll;
}

/** One mode's control plane and dashboard; registers each stop in `started` as soon as it runs. */
async function startDeployment(mode: E2EMode, started: Array<() => Promise<void>>): Promise<void> {
  const controlPlane: ControlPlane = await startControlPlane(mode, root);
  started.push(controlPlane.stop);
  const webPort = await freePort();
  const webUrl = `http://127.0.0.1:${webPort}`;
  const web = startProcess(
    `web-${mode}`,
    process.execPath,
    [nextBin(root), "start", "-p", String(webPort), "-H", "127.0.0.1"],
    {
      cwd: join(root, "apps/web"),
      env: { ...process.env, RAAS_SERVER_URL: controlPlane.serverUrl, NEXT_TELEMETRY_DISABLED: "1" },
    },
  );
  started.push(() => web.stop());
  await waitForHttp(webUrl, 60_000, web);
  const names = e2eUrlVariables(mode);
  process.env[names.server] = controlPlane.serverUrl;
  process.env[names.web] = webUrl;
}
