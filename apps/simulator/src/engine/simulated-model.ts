import type { ModelFamilyAdapter } from "@raas/inference";
import { assertNever } from "@raas/shared";
import { BlockPrefixCache, type BlockPrefixCacheOptions } from "../cache/block-prefix-cache";
import { type TMalformedCallMode, writeMalformedCalls } from "../policies/malformed-calls";
import { malformedTurn } from "../policies/malformed-policy";
import type { PolicyTurn, SimulatorPolicy } from "../policies/policy.types";
import { BatchSlots } from "./batch-slots";
import { type DueChunk, streamChunks } from "./chunk-streamer";
import { sleepUntil } from "./due-time";
import { createLatencyModel, type LatencyModel, type LatencyModelOptions } from "./latency-model";
import { createPromptInspector, type PromptFacts } from "./prompt-inspector";
import { fillerWords, hashSeed, seededRandom } from "./seeded-random";
import { UnseededDraws } from "./unseeded-draws";

/** Batch slots of the simulated model by default. */
export const DEFAULT_MAX_CONCURRENCY = 32;

export interface SimulatedModelOptions {
  family: ModelFamilyAdapter;
  policy: SimulatorPolicy;
  /**
   * Seed of every random draw. A request with a seed gets the same response from any simulator of
   * the same seed; requests without one sample afresh (as a real engine does) from a stream this
   * starts, so the same unseeded requests in the same order get the same responses. Default 0.
   */
  seed?: number;
  cache?: BlockPrefixCacheOptions;
  latency?: LatencyModelOptions;
  /** Batch slots: requests generating at once; the rest wait. Default 32. */
  maxConcurrency?: number;
  /**
   * A streamed generation sends its tokens in chunks of this much decode time (at least one token
   * a chunk), in ms. Default `DEFAULT_STREAM_INTERVAL_MS` (10).
   */
  streamIntervalMs?: number;
}

/** Decode time per streamed chunk by default, in ms. */
const DEFAULT_STREAM_INTERVAL_MS = 10;

/** Tokens of a streamed generation as they are decoded. */
export interface TokenChunk {
  ids: number[];
  logprobs: number[];
  /** The chunk's text (a multi-byte character split between chunks may decode oddly). */
  text: string;
}

export interface GenerationCall {
  promptIds: readonly number[];
  maxTokens: number;
  /**
   * Per-request seed (e.g. one per trajectory): the same seed and prompt give the same response.
   * Null when the client sent none: the response is sampled afresh (a trajectory's later turns keep
   * the draw of its first).
   */
  seed: number | null;
  stopTokenIds: readonly number[];
  signal?: AbortSignal;
  /**
   * Streams: called with each chunk as its decode time passes. Tokens sent before an abort count
   * as generated (what a client that stops reading has received).
   */
  onTokens?: (chunk: TokenChunk) => void;
}

export interface GenerationOutcome {
  outputIds: number[];
  logprobs: number[];
  finishReason: "stop" | "length";
  /** The stop token that ended generation, if any. */
  matchedStopId: number | null;
  promptTokens: number;
  cachedTokens: number;
  /** Decoded output without a trailing end-of-turn token. */
  text: string;
}

/** Counters in tokens/requests since start, named after vLLM's metrics. */
export interface SimulatorCounters {
  prefixCacheQueries: number;
  prefixCacheHits: number;
  promptTokens: number;
  generationTokens: number;
  requestsSucceeded: number;
  requestsAborted: number;
}

/** The labelled test double of a GPU model: prefix cache, batch slots, latency, scripted policy. */
export class SimulatedModel {
  readonly cache: BlockPrefixCache;
  readonly slots: BatchSlots;
  readonly counters: SimulatorCounters = {
    prefixCacheQueries: 0,
    prefixCacheHits: 0,
    promptTokens: 0,
    generationTokens: 0,
    requestsSucceeded: 0,
    requestsAborted: 0,
  };
  private readonly latency: LatencyModel;
  private readonly inspect: (promptIds: readonly number[]) => PromptFacts;
  private readonly seed: number;
  private readonly unseeded: UnseededDraws;
  /** Ids a rendered response may already end its turn with (harmony: `<|call|>`, `<|return|>`). */
  private readonly turnEndIds: ReadonlySet<number>;
  /** Ids generation stops at whatever the request says, as vLLM stops at the model's own EOS ids. */
  private readonly stopIds: ReadonlySet<number>;
  /** Each malformed tool call as the family writes it. */
  private readonly malformedCalls: Record<TMalformedCallMode, string>;
  /** Text of single tokens by id (bounded by the vocabulary). */
  private readonly tokenTexts = new Map<number, string>();

  /** The served model family (chat template, tokenizer, response parser). */
  get family(): ModelFamilyAdapter {
    return this.options.family;
  }

  constructor(private readonly options: SimulatedModelOptions) {
    this.cache = new BlockPrefixCache(options.cache);
    this.slots = new BatchSlots(options.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY);
    this.latency = createLatencyModel(options.latency);
    this.inspect = createPromptInspector(options.family, {
      readsOfferedTools: options.policy.readsOfferedTools === true,
    });
    this.seed = options.seed ?? 0;
    const { family } = options;
    this.turnEndIds = new Set(family.turnEndIds ?? [family.endOfTurnId]);
    this.stopIds = new Set([...family.stopTokenIds, family.endOfTurnId]);
    this.malformedCalls = writeMalformedCalls(family);
    this.unseeded = new UnseededDraws({ seed: this.seed, turnEndIds: [...this.turnEndIds] });
  }

  async generate(call: GenerationCall): Promise<GenerationOutcome> {
    const release = await this.slots.acquire(call.signal);
    const sentIds: number[] = [];
    try {
      // Prefill and every chunk are due on a fixed schedule from the request's start, as a GPU
      // works whatever the host's CPU is doing: a late timer (or a slow prompt inspection) is
      // caught up on, never added to every later chunk.
      const startedAtMs = performance.now();
      const cachedTokens = this.cache.lookupAndInsert(call.promptIds);
      const decodeStartMs = startedAtMs + this.latency.prefillMs(call.promptIds.length - cachedTokens);
      await sleepUntil(decodeStartMs, call.signal);
      const facts = this.inspect(call.promptIds);
      const draw = call.seed === null ? this.unseeded.drawFor(call.promptIds) : null;
      // An unseeded draw is marked apart from request seeds, so it never replays a seeded response.
      const requestSeed = call.seed ?? `unseeded-${draw}`;
      const outcome = this.respond(facts, call, requestSeed);
      const { onTokens } = call;
      if (onTokens) {
        const perChunk = this.tokensPerChunk();
        const chunks: DueChunk[] = [];
        for (let start = 0; start < outcome.outputIds.length; start += perChunk) {
          const end = Math.min(start + perChunk, outcome.outputIds.length);
          chunks.push({ start, end, dueAtMs: decodeStartMs + this.latency.decodeMs(end) });
        }
        await streamChunks(
          chunks,
          ({ start, end }) => {
            const ids = outcome.outputIds.slice(start, end);
            onTokens({ ids, logprobs: outcome.logprobs.slice(start, end), text: this.chunkText(ids) });
            for (const id of ids) sentIds.push(id);
            this.counters.generationTokens += ids.length;
          },
          call.signal,
        );
      } else {
        const doneAtMs = decodeStartMs + this.latency.decodeMs(outcome.outputIds.length);
        await sleepUntil(doneAtMs, call.signal);
        this.counters.generationTokens += outcome.outputIds.length;
      }
      this.record(call.promptIds, outcome.outputIds, cachedTokens);
      if (draw !== null) this.unseeded.remember(call.promptIds, outcome.outputIds, draw);
      this.counters.requestsSucceeded += 1;
      return { ...outcome, promptTokens: call.promptIds.length, cachedTokens };
    } catch (error) {
      if (call.signal?.aborted) {
        this.counters.requestsAborted += 1;
        // What was streamed before the abort was computed: its blocks stay cached (as in vLLM).
        if (sentIds.length > 0) {
          const promptBlocks = Math.floor(call.promptIds.length / this.cache.blockSize);
          this.cache.insert([...call.promptIds, ...sentIds], promptBlocks);
        }
      }
      throw error;
    } finally {
      release();
    }
  }

  /** A chunk's text; one token's (the usual chunk) from a cache, as a token decodes alike anywhere. */
  private chunkText(ids: readonly number[]): string {
    const { tokenizer } = this.options.family;
    if (ids.length !== 1) return tokenizer.decode(ids);
    const id = ids[0] as number;
    let text = this.tokenTexts.get(id);
    if (text === undefined) {
      text = tokenizer.decode(ids);
      this.tokenTexts.set(id, text);
    }
    return text;
  }

  /**
   * Tokens a second the model can generate with every batch slot decoding (slots × 1 s / decode
   * time per token): the capacity its generated tokens per second are measured against. Null when
   * decoding takes no time.
   */
  get decodeCapacityTokensPerSec(): number | null {
    const perTokenMs = this.latency.decodeMs(1);
    return perTokenMs > 0 ? (this.slots.maxConcurrency * 1_000) / perTokenMs : null;
  }

  /** Tokens per streamed chunk: `streamIntervalMs` of decode time, at least one. */
  private tokensPerChunk(): number {
    const perToken = this.latency.decodeMs(1);
    if (perToken <= 0) return Number.POSITIVE_INFINITY;
    return Math.max(1, Math.floor((this.options.streamIntervalMs ?? DEFAULT_STREAM_INTERVAL_MS) / perToken));
  }

  private record(promptIds: readonly number[], outputIds: readonly number[], cachedTokens: number): void {
    const promptBlocks = Math.floor(promptIds.length / this.cache.blockSize);
    this.cache.insert([...promptIds, ...outputIds], promptBlocks);
    this.counters.prefixCacheQueries += promptIds.length;
    this.counters.prefixCacheHits += cachedTokens;
    this.counters.promptTokens += promptIds.length;
  }

  /** A rendered turn's ids with the end-of-turn token, unless the render already ends the turn. */
  private closeTurn(ids: number[]): number[] {
    return this.turnEndIds.has(ids.at(-1) as number) ? ids : [...ids, this.options.family.endOfTurnId];
  }

  private respond(
    facts: PromptFacts,
    call: GenerationCall,
    requestSeed: number | string,
  ): Omit<GenerationOutcome, "promptTokens" | "cachedTokens"> {
    const { family } = this.options;
    const random = seededRandom(hashSeed(this.seed, requestSeed, facts.taskId, facts.turnIndex));
    const turn: PolicyTurn = facts.simulateMode
      ? malformedTurn(facts.simulateMode)
      : this.options.policy.respond({
          taskId: facts.taskId,
          turnIndex: facts.turnIndex,
          random,
          trajectoryRandom: seededRandom(hashSeed(this.seed, requestSeed, facts.taskId)),
          maxTokens: call.maxTokens,
          offeredTools: facts.offeredTools,
        });
    let ids: number[];
    switch (turn.type) {
      case "message":
        ids = this.closeTurn(family.tokenizer.encode(family.renderAssistant(turn)));
        break;
      case "raw":
        ids = this.closeTurn(family.tokenizer.encode(turn.text));
        break;
      case "malformed":
        ids = this.closeTurn(family.tokenizer.encode(this.malformedCalls[turn.mode]));
        break;
      case "overlong":
        ids = family.tokenizer.encode(fillerWords(random, call.maxTokens + 8)).slice(0, call.maxTokens + 1);
        break;
      default:
        return assertNever(turn, "policy turn");
    }
    let finishReason: GenerationOutcome["finishReason"] = "length";
    let matchedStopId: number | null = null;
    // A turn the family's template renders with several stops (harmony: a `<|call|>` per call) is
    // cut at the first, as the model's sampler would cut it.
    const stopAt = ids.findIndex((id) => call.stopTokenIds.includes(id) || this.stopIds.has(id));
    if (stopAt !== -1 && stopAt < call.maxTokens) {
      ids = ids.slice(0, stopAt + 1);
      finishReason = "stop";
      matchedStopId = ids[stopAt] as number;
    } else ids = ids.slice(0, call.maxTokens);
    const logprobs = ids.map(() => -Math.round(random() * 2_000) / 1_000);
    const kept = matchedStopId === null ? ids : ids.slice(0, -1);
    // A request for no new tokens (SGLang `max_new_tokens: 0`, a teacher scoring a prompt) has no
    // text; the tokenizer refuses to decode nothing.
    const text = kept.length === 0 ? "" : family.tokenizer.decode(kept);
    return { outputIds: ids, logprobs, finishReason, matchedStopId, text };
  }
}
