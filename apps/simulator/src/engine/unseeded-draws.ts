import { hashSeed, seededRandom } from "./seeded-random";

/** Conversations whose draw is remembered by default (least recently used forgotten first). */
const DEFAULT_REMEMBERED_CONVERSATIONS = 65_536;

/** Draws kept per remembered conversation: identical histories written under different draws. */
const DRAWS_PER_CONVERSATION = 32;

export interface UnseededDrawsOptions {
  /** The simulator's seed: the stream of fresh draws starts from it. */
  seed: number;
  /** The tokens that end an assistant turn: a remembered conversation ends with one. */
  turnEndIds: readonly number[];
  /** Conversations remembered at most. Default `DEFAULT_REMEMBERED_CONVERSATIONS` (65,536). */
  capacity?: number;
}

/**
 * The draws of requests sent without a seed. A real engine samples such a request afresh, so the
 * simulator does too: a new trajectory takes the next number of a stream that the simulator's seed
 * starts (as vLLM's `--seed` seeds its global generator), and two requests with the same prompt get
 * different draws. A trajectory keeps its draw on later turns, as a model conditions on what it
 * wrote: the simulator remembers which draw wrote each response (the prompt and the response up to
 * its end of turn), and a prompt that continues one continues its draw. A history written by
 * several draws (scripts with no random text) continues one of them at random, so every draw keeps
 * its share; a history never seen here (a restarted simulator, a re-rendered conversation) is a
 * new trajectory.
 */
export class UnseededDraws {
  private readonly next: () => number;
  private readonly capacity: number;
  /** Draws by conversation key, in least-recently-used order. */
  private readonly written = new Map<string, number[]>();
  private readonly turnEnds: ReadonlySet<number>;

  constructor(options: UnseededDrawsOptions) {
    this.next = seededRandom(hashSeed(options.seed, "unseeded"));
    this.capacity = options.capacity ?? DEFAULT_REMEMBERED_CONVERSATIONS;
    this.turnEnds = new Set(options.turnEndIds);
  }

  /** The draw of a prompt: that of its longest remembered prefix, else a fresh one. */
  drawFor(promptIds: readonly number[]): number {
    let found: number[] | undefined;
    let foundKey = "";
    forEachTurnEnd(promptIds, this.turnEnds, (key) => {
      const draws = this.written.get(key);
      if (draws) {
        found = draws;
        foundKey = key;
      }
    });
    if (!found) return this.fresh();
    this.touch(foundKey, found);
    return found.length === 1
      ? (found[0] as number)
      : (found[Math.floor(this.next() * found.length)] as number);
  }

  /** Remembers that `draw` wrote `responseIds` after `promptIds` (kept when it ends a turn). */
  remember(promptIds: readonly number[], responseIds: readonly number[], draw: number): void {
    if (!this.turnEnds.has(responseIds.at(-1) as number)) return;
    let key = "";
    forEachTurnEnd([...promptIds, ...responseIds], this.turnEnds, (end) => {
      key = end;
    });
    const draws = this.written.get(key) ?? [];
    if (!draws.includes(draw)) draws.push(draw);
    if (draws.length > DRAWS_PER_CONVERSATION) draws.shift();
    this.touch(key, draws);
    if (this.written.size > this.capacity) {
      const oldest = this.written.keys().next().value as string;
      this.written.delete(oldest);
    }
  }

  private fresh(): number {
    return Math.floor(this.next() * 2 ** 32);
  }

  private touch(key: string, draws: number[]): void {
    this.written.delete(key);
    this.written.set(key, draws);
  }
}

// Two 32-bit hashes of different bases and the length: a key collision between two remembered
// conversations (of 65k) is out of reach, where one 32-bit hash would collide now and then.
const BASE_A = 0x811c9dc5;
const BASE_B = 0x9e3779b9;
const PRIME_A = 0x01000193;
const PRIME_B = 0x85ebca6b;

function keyOf(a: number, b: number, length: number): string {
  return `${(a >>> 0).toString(36)}.${(b >>> 0).toString(36)}.${length}`;
}

/** Calls `visit` with the key of every prefix of `ids` that ends with a turn end, shortest first. */
function forEachTurnEnd(
  ids: readonly number[],
  turnEnds: ReadonlySet<number>,
  visit: (key: string) => void,
): void {
  let a = BASE_A;
  let b = BASE_B;
  for (let i = 0; i < ids.length; i += 1) {
    const id = ids[i] as number;
    a = Math.imul(a ^ id, PRIME_A);
    b = Math.imul(b ^ id, PRIME_B) ^ (b >>> 15);
    if (turnEnds.has(id)) visit(keyOf(a, b, i + 1));
  }
}
