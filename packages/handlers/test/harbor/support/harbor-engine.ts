// The harbor handler on real bubblewrap sandboxes, driven by a scripted policy
// (`../../support/scripted-engine`).
import { fileURLToPath } from "node:url";
import { createHarborHandler } from "../../../src/harbor/harbor-handler";
import type { THarborTask } from "../../../src/harbor/harbor-task.schema";
import { harborOracleScript } from "../../../src/harbor/harbor-task-loader";
import { type OracleToolCall, solveScriptTurn } from "../../../src/oracle/oracle-policy";
import { type ScriptedEngine, type ScriptedTurn, startScriptedEngine } from "../../support/scripted-engine";

export type { ScriptedTurn } from "../../support/scripted-engine";

/** The shipped Harbor example tasks (environments/harbor-examples). */
export const HARBOR_EXAMPLES_DIR = fileURLToPath(
  new URL("../../../../../environments/harbor-examples/", import.meta.url),
);

/** The oracle as a policy: one python call that runs the task's solve.sh (paths mapped) in the workspace. */
export function oracleTurns(task: THarborTask): ScriptedTurn[] {
  const script = harborOracleScript(task);
  if (script === null) throw new Error(`task ${task.name} has no solution/solve.sh`);
  return [solveScriptTurn(script)];
}

export const bash = (command: string): OracleToolCall => ({ name: "bash", arguments: { command } });

export type HarborEngine = ScriptedEngine;

export function startHarborEngine(): Promise<HarborEngine> {
  return startScriptedEngine("harbor", createHarborHandler);
}
