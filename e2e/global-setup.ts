import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureWebBuild, nextBin } from "../scripts/web-build.mjs";
import { startProcess, waitForHttp } from "./support/child-process";
import { E2E_TOKENS } from "./support/e2e-env";
import { freePort } from "./support/free-port";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

/**
 * Starts the control plane (in-memory store, known tokens) and the dashboard's production
 * build on free ports, and tells the test workers where they are. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const tsxCli = join(dirname(require.resolve("tsx/package.json")), "dist", "cli.mjs");
  const built = ensureWebBuild(root, {
    force: Boolean(process.env.RAAS_E2E_REBUILD),
    log: (line) => process.stderr.write(`[e2e] ${line}\n`),
  });
  if (!built) throw new Error("next build failed; see its output above");

  const [serverPort, webPort] = [await freePort(), await freePort()];
  const serverUrl = `http://127.0.0.1:${serverPort}`;
  const webUrl = `http://127.0.0.1:${webPort}`;

  const server = startProcess("server", process.execPath, [tsxCli, "apps/server/src/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(serverPort),
      HOST: "127.0.0.1",
      RAAS_STORE: "memory",
      RAAS_ADMIN_TOKEN: E2E_TOKENS.admin,
      RAAS_TRAINER_TOKEN: E2E_TOKENS.trainer,
      RAAS_VIEWER_TOKEN: E2E_TOKENS.viewer,
      RAAS_REQUIRE_VIEWER_TOKEN: "false",
      LOG_LEVEL: "warn",
    },
  });
  const web = startProcess(
    "web",
    process.execPath,
    [nextBin(root), "start", "-p", String(webPort), "-H", "127.0.0.1"],
    {
      cwd: join(root, "apps/web"),
      env: { ...process.env, RAAS_SERVER_URL: serverUrl, NEXT_TELEMETRY_DISABLED: "1" },
    },
  );
  const stopAll = async () => {
    await Promise.all([web.stop(), server.stop()]);
  };
  try {
    await Promise.all([waitForHttp(`${serverUrl}/health`, 60_000, server), waitForHttp(webUrl, 60_000, web)]);
  } catch (error) {
    await stopAll();
    throw error;
  }
  process.env.RAAS_E2E_SERVER_URL = serverUrl;
  process.env.RAAS_E2E_WEB_URL = webUrl;
  return stopAll;
}
