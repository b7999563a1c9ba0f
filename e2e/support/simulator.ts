import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { startProcess, waitForHttp } from "./child-process";
import { MATH_VERIFY_SCRIPTS } from "./environment-runs";
import { freePort } from "./free-port";
import { HARBOR_PARTIAL_SCRIPT, HARBOR_PARTIAL_TASK_ID } from "./harbor-jobs";

const require = createRequire(import.meta.url);

/** The simulator's scripts for the shipped math/code/stem tasks (some solved, some not). */
const POLICY_FILE = "packages/handlers/data/simulator/math-code-stem.policy.json";

/**
 * A math task whose one tool call allocates more than a sandbox process may address (RLIMIT_AS,
 * 4 GiB by default): Python raises MemoryError at once, without touching the memory, and the
 * sandbox records a `memory` limit hit.
 */
export const MEMORY_TASK_ID = "e2e-memory";
const ALLOCATE_PAST_THE_LIMIT = "block = bytearray(6 * 1024 ** 3)";

/** The shipped scripts plus the e2e's own tasks (and the first math-verify tasks), written to a temporary file. */
function writePolicyFile(root: string): { path: string; remove(): void } {
  const policy = JSON.parse(readFileSync(join(root, POLICY_FILE), "utf8")) as {
    tasks: Record<string, unknown>;
  };
  policy.tasks[MEMORY_TASK_ID] = {
    steps: [
      {
        thinking: "Let me allocate a big block.",
        toolCalls: [{ name: "python", arguments: { code: ALLOCATE_PAST_THE_LIMIT } }],
      },
      { thinking: "Done.", content: "The answer is $\\boxed{1}$." },
    ],
  };
  policy.tasks[HARBOR_PARTIAL_TASK_ID] = HARBOR_PARTIAL_SCRIPT;
  Object.assign(policy.tasks, MATH_VERIFY_SCRIPTS);
  const dir = mkdtempSync(join(tmpdir(), "raas-e2e-simulator-"));
  const path = join(dir, "policy.json");
  writeFileSync(path, JSON.stringify(policy));
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Starts apps/simulator (the labelled test double for a GPU model) with the shipped task scripts
 * and `MEMORY_TASK_ID` on a free port, so agent jobs of the e2e deployments run real turns and sandboxes.
 */
export async function startSimulatorProcess(
  name: string,
  root: string,
): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const policy = writePolicyFile(root);
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
      policy.path,
    ],
    { cwd: root, env: { ...process.env } },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    // Generous: on a loaded 2-core machine tsx may take minutes to load the simulator.
    await waitForHttp(`${url}/health`, 240_000, simulator);
  } catch (error) {
    await simulator.stop();
    policy.remove();
    throw error;
  }
  return {
    url,
    stop: async () => {
      await simulator.stop();
      policy.remove();
    },
  };
}
