import type { ModelFamilyAdapter } from "./model-family.types";

/** Whether a response whose last id is `lastId` closed its turn: `renderContinuation`'s `hasEndOfTurn`. */
export function isTurnClosed(family: ModelFamilyAdapter, lastId: number | undefined): boolean {
  if (lastId === undefined) return false;
  return (family.turnEndIds ?? [family.endOfTurnId]).includes(lastId);
}
