import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { startProcess, waitForHttp } from "./child-process";
import { freePort } from "./free-port";

const require = createRequire(import.meta.url);

/** The simulator's scripts for the shipped math/code/stem tasks (some solved, some not). */
const POLICY_FILE = "packages/handlers/data/simulator/math-code-stem.policy.json";

/**
 * Starts apps/simulator (the labelled test double for a GPU model) with the shipped task scripts
 * on a free port, so agent jobs of the e2e deployments run real turns and sandboxes.
 */
export async function startSimulatorProcess(
  name: string,
  root: string,
): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const tsxCli = join(dirname(require.resolve("tsx/package.json")), "dist", "cli.mjs");
  const simulator = startProcess(
    name,
    process.execPath,
    [
      tsxCli,
      "apps/simulator/src/main.ts",
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--policy-file",
      POLICY_FILE,
    ],
    { cwd: root, env: { ...process.env } },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/health`, 60_000, simulator);
  } catch (error) {
    await simulator.stop();
    throw error;
  }
  return { url, stop: () => simulator.stop() };
}
