// The reward-fn handler on real bubblewrap sandboxes, driven by a scripted policy
// (`../../support/scripted-engine`).
import { createRewardFnHandler } from "../../../src/reward-fn/reward-fn-handler";
import { type ScriptedEngine, type ScriptedTurn, startScriptedEngine } from "../../support/scripted-engine";

export type { ScriptedTurn } from "../../support/scripted-engine";

export const submit = (answer: string): ScriptedTurn => [{ name: "submit", arguments: { answer } }];
export const python = (code: string): ScriptedTurn => [{ name: "python", arguments: { code } }];

export type RewardFnEngine = ScriptedEngine;

export function startRewardFnEngine(): Promise<RewardFnEngine> {
  return startScriptedEngine("reward-fn", (deps) =>
    createRewardFnHandler({
      ...deps,
      // Large enough for the huge-answer attack to reach the verifier whole.
      defaults: { limits: { maxContextTokens: 1_048_576, maxTokensPerTurn: 262_144 } },
    }),
  );
}
