import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { configFromEnv } from "../../src/config-from-env";
import { parseServerEnv } from "../../src/env";
import { startServer } from "../../src/server";

const SWE_DATA = fileURLToPath(new URL("../../../../packages/handlers/data/swe/", import.meta.url));

/**
 * The server as its env composes it, with every handler (sleep, math, code, stem, swe over the
 * shipped bundles) registered; swe's scratch directory is removed on close.
 */
export async function startAllHandlersServer(): Promise<{
  url: string;
  adminToken: string;
  close(): Promise<void>;
}> {
  const scratchDir = mkdtempSync(join(tmpdir(), "raas-all-handlers-"));
  const fromEnv = configFromEnv(parseServerEnv({ RAAS_SWE_REPOS_DIR: join(SWE_DATA, "bundles") }));
  const swe = fromEnv.agentHandlers ? fromEnv.agentHandlers.swe : undefined;
  const running = await startServer({
    port: 0,
    logLevel: "silent",
    agentHandlers: { ...fromEnv.agentHandlers, ...(swe && { swe: { ...swe, scratchDir } }) },
  });
  return {
    url: running.url,
    adminToken: running.auth.adminToken as string,
    close: async () => {
      await running.close({ graceMs: 50 });
      rmSync(scratchDir, { recursive: true, force: true });
    },
  };
}
