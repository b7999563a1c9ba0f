import {
  buildGatewayTraces,
  type GatewayCallStore,
  type GatewaySession,
  GatewaySessionRegistry,
  type HarnessSamplingPolicy,
  type InferencePool,
  type SamplingParams,
} from "@raas/engine";
import {
  requestFailure,
  type TAnthropicMessage,
  type TChatCompletion,
  type TChatCompletionRequest,
  type TGatewayCallRecord,
  type TGatewayTraces,
  type TResponsesResponse,
} from "@raas/shared";
import type { ModelFamilyAdapter } from "../model/model-family.types";
import { createSegmentCachedTokenizer } from "../model/segment-cached-tokenizer";
import { countAnthropicTokens, createAnthropicMessage } from "./anthropic-call";
import { shareWithParent } from "./call-base";
import { type CallFace, CHAT_FACE, exchangeOf } from "./call-face";
import type { FaceOptions } from "./face-options";
import {
  buildGatewayCallRecord,
  checkSamplingConflicts,
  type PreparedCall,
  toChatCompletion,
} from "./gateway-call";
import { type CompleteOptions, generateAnswer } from "./gateway-generation";
import { buildGatewayPrompt } from "./gateway-prompt";
import { loadSessionState, type SessionState, sessionCallOf } from "./gateway-session-state";
import { toToolSpecs } from "./openai-messages";
import { randomHex } from "./random-hex";
import { createOpenAiResponse } from "./responses-call";
import { findToolChoiceViolation, readToolChoice } from "./tool-choice";

export interface InferenceGatewayOptions {
  /** Where generations go; calls of one job stick to its backend (the pool's sticky routing). */
  pool: InferencePool;
  /** Chat template, tokenizer and tool-call format of the served model. */
  family: ModelFamilyAdapter;
  /** Records every call. */
  calls: GatewayCallStore;
  /** The model name `/v1/models` and every answer report. */
  modelName: string;
  /** Session tokens; default a registry of this gateway's own. */
  sessions?: GatewaySessionRegistry;
  /** `max_tokens` of requests that give none. Default 4_096. */
  defaultMaxTokens?: number;
  /** Longest prompt + response in tokens; a longer request is refused (400). Default 40_960. */
  maxContextTokens?: number;
  now?: () => number;
}

/**
 * The OpenAI-compatible inference gateway of a job: renders chat requests to token ids with the
 * model family's template and tokenizer (continuing earlier calls token-in/token-out), generates
 * through the routed pool, answers with OpenAI messages and `tool_calls`, and records every call
 * (messages, prompt ids, sampled ids, logprobs, finish reason, backend, weight version) for the
 * trace builder. A session token grants these calls for one running job and nothing else.
 * Anthropic Messages and OpenAI Responses requests are mapped onto chat requests and go through
 * the same call path (`anthropic-call.ts`, `responses-call.ts`): one record, many faces.
 */
export class InferenceGateway {
  readonly sessions: GatewaySessionRegistry;
  /** Per job in this process; a promise, so concurrent first calls share one store lookup. */
  private readonly state = new Map<string, Promise<SessionState>>();
  private readonly now: () => number;
  private readonly defaultMaxTokens: number;
  private readonly maxContextTokens: number;
  /** The served family with a tokenizer that encodes each stretch between added tokens once. */
  private readonly family: ModelFamilyAdapter;

  constructor(private readonly options: InferenceGatewayOptions) {
    this.family = { ...options.family, tokenizer: createSegmentCachedTokenizer(options.family.tokenizer) };
    this.now = options.now ?? Date.now;
    this.sessions = options.sessions ?? new GatewaySessionRegistry(this.now);
    this.defaultMaxTokens = options.defaultMaxTokens ?? 4_096;
    this.maxContextTokens = options.maxContextTokens ?? 40_960;
  }

  get modelName(): string {
    return this.options.modelName;
  }

  /**
   * The job's session (the same token for every call until the job ends). `sampling` is the job's
   * settings and what to do with a harness's own (default: the backends' defaults, a harness's
   * fields overridden); a harness never chooses the distribution its tokens are sampled from.
   */
  openSession(jobId: string, sampling?: HarnessSamplingPolicy): GatewaySession {
    return this.sessions.open(jobId, sampling);
  }

  /**
   * A fresh attempt of the job's RUN begins (its first, or a retry): calls recorded by an earlier
   * attempt are removed, as the engine removes that attempt's turns, and numbering starts at 0.
   */
  async startAttempt(jobId: string): Promise<void> {
    this.state.delete(jobId);
    await this.options.calls.deleteCalls(jobId);
    this.state.set(jobId, Promise.resolve({ calls: [], nextSeq: 0 }));
  }

  /** The job ended: its token stops working. Its recorded calls stay in the store. */
  closeJob(jobId: string): void {
    this.sessions.closeJob(jobId);
    this.state.delete(jobId);
  }

  /** The session of a token, or 401. */
  authorize(token: string): GatewaySession {
    const session = this.sessions.resolve(token);
    if (!session) {
      throw requestFailure(
        "UNAUTHORIZED",
        "unknown or expired gateway session: a session token works only while its job runs",
      );
    }
    return session;
  }

  listModels(token: string): {
    object: "list";
    data: { id: string; object: "model"; created: number; owned_by: string }[];
  } {
    const session = this.authorize(token);
    return {
      object: "list",
      data: [
        {
          id: this.options.modelName,
          object: "model",
          created: Math.floor(session.openedAtMs / 1000),
          owned_by: "raas",
        },
      ],
    };
  }

  /** One chat completion for the token's job; the call is handed to the store (`append`) before the answer returns. */
  async complete(
    token: string,
    request: TChatCompletionRequest,
    options: CompleteOptions = {},
  ): Promise<TChatCompletion> {
    return (await this.completeCall(token, request, options)).completion;
  }

  /** An Anthropic Messages request, answered through the same call path as `complete`. */
  createMessage(token: string, body: unknown, options: FaceOptions = {}): Promise<TAnthropicMessage> {
    return createAnthropicMessage(this, token, body, options);
  }

  /** `POST /v1/messages/count_tokens`: the prompt's tokens as the next call would render them. */
  countMessageTokens(token: string, body: unknown): Promise<{ input_tokens: number }> {
    return countAnthropicTokens(this, token, body);
  }

  /** An OpenAI Responses request, answered through the same call path as `complete`. */
  createResponse(token: string, body: unknown, options: FaceOptions = {}): Promise<TResponsesResponse> {
    return createOpenAiResponse(this, token, body, options);
  }

  /** `complete`, with the recorded call's id. */
  async completeCall(
    token: string,
    request: TChatCompletionRequest,
    options: CompleteOptions = {},
  ): Promise<{ completion: TChatCompletion; callId: string }> {
    const { completion, callId } = await this.completeFaceCall(token, request, CHAT_FACE, options);
    return { completion, callId };
  }

  /**
   * `complete` for a call in another API shape (`face`): its answer in that shape, named after the
   * recorded call's id, which the record keeps with what was sent in that shape.
   */
  async completeFaceCall<TAnswer>(
    token: string,
    request: TChatCompletionRequest,
    face: CallFace<TAnswer>,
    options: CompleteOptions = {},
  ): Promise<{ completion: TChatCompletion; callId: string; answer: TAnswer }> {
    const enteredAt = performance.now();
    const session = this.authorize(token);
    const conflicts = checkSamplingConflicts(request, session);
    const state = await this.sessionState(session.jobId);
    const call = this.prepareCall(request, session, state);
    const startedAtMs = this.now();
    const callId = `gwc_${randomHex(8)}`;
    const answered = await generateAnswer({
      pool: this.options.pool,
      family: this.family,
      modelName: this.options.modelName,
      jobId: session.jobId,
      request,
      call,
      options: { ...options, callId, startedAtMs },
    });
    const completion = toChatCompletion(callId, this.options.modelName, startedAtMs, call, answered);
    const answer = face.answer(completion, callId);
    const { parent, shared } = shareWithParentCall(state, request, call);
    const record = buildGatewayCallRecord({
      callId,
      jobId: session.jobId,
      request,
      call,
      answered,
      conflicts,
      shared,
      toolChoiceViolation: findToolChoiceViolation(
        call.requiredCall,
        (answered.answer.message.tool_calls ?? []).map((toolCall) => toolCall.function.name),
      ),
      exchange: exchangeOf(face, answer, options.userAgent),
      overheadMs: performance.now() - enteredAt - answered.generationMs,
      createdAtMs: startedAtMs,
    });
    await this.options.calls.append(record, shared?.base);
    // The repeated messages' keys are the parent's strings (equal messages at equal places).
    if (parent && shared) {
      for (let i = 0; i < shared.base.messages; i += 1) {
        call.prompt.messageKeys[i] = parent.messageKeys[i] as string;
      }
    }
    state.calls.push(sessionCallOf(record, call.prompt));
    return { completion, callId, answer };
  }

  /** The prompt's length in tokens as a call with `request` would render it now (nothing recorded). */
  async countPromptTokens(token: string, request: TChatCompletionRequest): Promise<number> {
    const session = this.authorize(token);
    const state = await this.sessionState(session.jobId);
    const prompt = buildGatewayPrompt({
      family: this.family,
      messages: request.messages,
      tools: toToolSpecs(request.tools),
      enableThinking: request.chat_template_kwargs?.enable_thinking ?? true,
      history: state.calls,
    });
    return prompt.promptIds.length;
  }

  /** A call of the token's session by id: its request messages and answer as recorded; null when unknown. */
  async findSessionCall(
    token: string,
    callId: string,
  ): Promise<{ messages: unknown[]; answer: unknown } | null> {
    const session = this.authorize(token);
    const state = await this.sessionState(session.jobId);
    const kept = state.calls.find((call) => call.id === callId);
    return kept ? { messages: [...kept.messages], answer: kept.answer } : null;
  }

  /** The job's recorded calls in arrival order. */
  listCalls(jobId: string): Promise<TGatewayCallRecord[]> {
    return this.options.calls.listCalls(jobId);
  }

  /** The job's recorded calls as chains with their certificate. */
  async buildTraces(jobId: string): Promise<TGatewayTraces> {
    return buildGatewayTraces(await this.options.calls.listCalls(jobId));
  }

  /** The job's state in this process, built at its first call here from the calls already stored. */
  private sessionState(jobId: string): Promise<SessionState> {
    const known = this.state.get(jobId);
    if (known) return known;
    const building = loadSessionState(this.options.calls, jobId);
    this.state.set(jobId, building);
    // A failed lookup is not remembered: the next call asks the store again.
    building.catch(() => {
      if (this.state.get(jobId) === building) this.state.delete(jobId);
    });
    return building;
  }

  /** Numbers the call and renders its prompt (continuing the session's chains); 400 past the context. */
  private prepareCall(
    request: TChatCompletionRequest,
    session: GatewaySession,
    state: SessionState,
  ): PreparedCall {
    const { family } = this;
    const requiredCall = readToolChoice(request);
    const tools = toToolSpecs(request.tools);
    const enableThinking = request.chat_template_kwargs?.enable_thinking ?? true;
    const seq = state.nextSeq++;
    const prompt = buildGatewayPrompt({
      family,
      messages: request.messages,
      tools,
      enableThinking,
      history: state.calls,
    });
    const maxTokens = request.max_completion_tokens ?? request.max_tokens ?? this.defaultMaxTokens;
    const room = this.maxContextTokens - prompt.promptIds.length;
    if (room < 1) {
      throw requestFailure(
        "VALIDATION_FAILED",
        `the prompt has ${prompt.promptIds.length} tokens; the context holds ${this.maxContextTokens}`,
      );
    }
    const sampling: SamplingParams = {
      ...session.sampling.settings,
      maxTokens: Math.min(maxTokens, room),
      stopTokenIds: [...family.stopTokenIds],
    };
    return { seq, prompt, tools, enableThinking, requiredCall, sampling };
  }
}

/** The call this one continues, and what of the parent's record it repeats. */
function shareWithParentCall(state: SessionState, request: TChatCompletionRequest, call: PreparedCall) {
  const { parentCallId, promptIds } = call.prompt;
  const parent = parentCallId === null ? undefined : state.calls.find((kept) => kept.id === parentCallId);
  const shared =
    parent && shareWithParent(parent, { promptIds, messages: request.messages, tools: request.tools ?? [] });
  return { parent, shared };
}
