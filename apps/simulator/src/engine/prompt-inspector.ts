import type { ModelFamilyAdapter } from "@raas/inference";
import { MALFORMED_MODES, type TMalformedMode } from "../policies/policy-config.schema";
import { type AssistantTurnMarkers, findAssistantTurnMarkers } from "./assistant-openers";
import { type OfferedTool, readOfferedTools } from "./offered-tools";
import { hashSeed } from "./seeded-random";

export interface PromptFacts {
  taskId: string;
  /** Assistant turns already in the prompt (the open generation header not counted). */
  turnIndex: number;
  /** `[simulate:<mode>]` in the first messages, if any. */
  simulateMode: TMalformedMode | null;
  /** The tools the system part offers, as its template rendered them (empty unless asked for). */
  offeredTools: readonly OfferedTool[];
}

const TASK_ID = /\btask[_ -]?id\s*[:=]\s*([\w.\-/]+)/gi;
const SIMULATE = /\[simulate:([a-z-]+)\]/g;

/** First prompts whose facts are remembered (most trajectories of a run share few of them per task). */
const REMEMBERED_FIRST_PROMPTS = 4_096;

type OpeningFacts = Omit<PromptFacts, "turnIndex">;

/** Two 32-bit hashes and the length: distinct first prompts never share a key in practice. */
function idsKey(ids: readonly number[]): string {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (const id of ids) {
    a = Math.imul(a ^ id, 0x01000193);
    b = Math.imul(b ^ id, 0x85ebca6b) ^ (b >>> 15);
  }
  return `${(a >>> 0).toString(36)}.${(b >>> 0).toString(36)}.${ids.length}`;
}

function lastMatch(pattern: RegExp, text: string): string | undefined {
  let found: string | undefined;
  for (const match of text.matchAll(pattern)) found = match[1];
  return found;
}

interface Opener {
  ids: readonly number[];
  /** It holds a stop id itself, so it opens a turn even right after a cut one. */
  closesTurn: boolean;
}

/** What the per-request scan needs, with one typed-array read per prompt token. */
interface TurnScanner {
  /** Per id: 1 where an opener starts with it, 2 where it is a closer (both: 3). */
  roles: Uint8Array;
  openersByFirstId: ReadonlyMap<number, readonly Opener[]>;
}

const STARTS_OPENER = 1;
const IS_CLOSER = 2;

function createTurnScanner(markers: AssistantTurnMarkers): TurnScanner {
  const openersByFirstId = new Map<number, Opener[]>();
  for (const ids of markers.openers) {
    const first = ids[0] as number;
    const list = openersByFirstId.get(first) ?? [];
    list.push({ ids, closesTurn: ids.some((id) => markers.closers.has(id)) });
    openersByFirstId.set(first, list);
  }
  const roles = new Uint8Array(Math.max(...openersByFirstId.keys(), ...markers.closers) + 1);
  for (const id of openersByFirstId.keys()) roles[id] = (roles[id] as number) | STARTS_OPENER;
  for (const id of markers.closers) roles[id] = (roles[id] as number) | IS_CLOSER;
  return { roles, openersByFirstId };
}

/**
 * Counts the assistant turns of a prompt and finds where the first opens. An opener inside an
 * open turn does not count unless it closes the turn itself: harmony writes
 * `<|end|><|start|>assistant` between the messages of one sampled turn, which ends only at a stop
 * id. (So a harmony turn cut at max tokens, closed by `<|end|>`, is not told from the next.)
 */
function countTurns(
  promptIds: readonly number[],
  { roles, openersByFirstId }: TurnScanner,
): { turns: number; firstOpenerAt: number } {
  let turns = 0;
  let firstOpenerAt = -1;
  let isOpen = false;
  let i = 0;
  while (i < promptIds.length) {
    const id = promptIds[i] as number;
    const role = roles[id] ?? 0;
    if (role === 0) {
      i += 1;
      continue;
    }
    const matched =
      (role & STARTS_OPENER) !== 0
        ? openersByFirstId
            .get(id)
            ?.find(
              (opener) =>
                (!isOpen || opener.closesTurn) &&
                i + opener.ids.length <= promptIds.length &&
                opener.ids.every((openerId, k) => promptIds[i + k] === openerId),
            )
        : undefined;
    if (matched) {
      turns += 1;
      if (firstOpenerAt === -1) firstOpenerAt = i;
      isOpen = true;
      i += matched.ids.length;
      continue;
    }
    if (isOpen && (role & IS_CLOSER) !== 0) isOpen = false;
    i += 1;
  }
  return { turns, firstOpenerAt };
}

/**
 * Reads what the scripted policies need from prompt ids, for any model family: the number of
 * assistant turns (openers found from the family's renders, see `findAssistantTurnMarkers`), and
 * the task id and `[simulate:…]` marker from the text before the first turn (the last match, as
 * the system prompt comes before the task), and with `readsOfferedTools` the tools its system part
 * offers. That text is decoded (and its tools read) once per distinct first prompt.
 */
export function createPromptInspector(
  family: ModelFamilyAdapter,
  options: { readsOfferedTools?: boolean } = {},
): (promptIds: readonly number[]) => PromptFacts {
  const scanner = createTurnScanner(findAssistantTurnMarkers(family));
  const remembered = new Map<string, OpeningFacts>();
  const readOpening = (openingIds: readonly number[]): OpeningFacts => {
    const key = idsKey(openingIds);
    const known = remembered.get(key);
    if (known) return known;
    const text = family.tokenizer.decode(openingIds);
    const marker = lastMatch(SIMULATE, text);
    const facts: OpeningFacts = {
      taskId: lastMatch(TASK_ID, text) ?? `task-${hashSeed(text).toString(16)}`,
      simulateMode: (MALFORMED_MODES as readonly string[]).includes(marker ?? "")
        ? (marker as TMalformedMode)
        : null,
      offeredTools: options.readsOfferedTools ? readOfferedTools(text) : [],
    };
    if (remembered.size >= REMEMBERED_FIRST_PROMPTS)
      remembered.delete(remembered.keys().next().value as string);
    remembered.set(key, facts);
    return facts;
  };
  return (promptIds) => {
    const { turns, firstOpenerAt } = countTurns(promptIds, scanner);
    const opening = promptIds.slice(0, firstOpenerAt === -1 ? promptIds.length : firstOpenerAt);
    return { ...readOpening(opening), turnIndex: Math.max(0, turns - 1) };
  };
}
