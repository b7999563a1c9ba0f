import type { BackendReportedCounters } from "@raas/engine";
import type { JsonHttpClient } from "../http/json-http-client";
import { inferenceFailure, isInferenceFailure } from "../inference-failure";
import type {
  BackendCodec,
  BackendGenerateRequest,
  BackendGeneration,
  BackendKind,
  BackendScoreRequest,
  InferenceBackend,
} from "./inference-backend.types";
import { nemoGenerateCodec } from "./nemo-generate.codec";
import { type ScoringCodec, sglangPromptScoringCodec, vllmPromptScoringCodec } from "./prompt-scoring.codec";
import { sglangGenerateCodec } from "./sglang-generate.codec";
import { vllmCompletionsCodec } from "./vllm-completions.codec";
import { readVllmMetrics } from "./vllm-metrics.parser";

const CODECS: Record<BackendKind, BackendCodec> = {
  vllm: vllmCompletionsCodec,
  sglang: sglangGenerateCodec,
  "nemo-rl": nemoGenerateCodec,
};

/** Kinds that can score a prompt; NeMo-RL `/generate` returns no prompt logprobs. */
const SCORING_CODECS: Partial<Record<BackendKind, ScoringCodec>> = {
  vllm: vllmPromptScoringCodec,
  sglang: sglangPromptScoringCodec,
};

export interface HttpInferenceBackendOptions {
  id: string;
  kind: BackendKind;
  /** e.g. `http://gpu-node-3:8000` (no trailing path). */
  baseUrl: string;
  /** Model name sent in vLLM requests. */
  model: string;
  client: JsonHttpClient;
  /** Health endpoint path. Default `/health`. */
  healthPath?: string;
  /** Prometheus endpoint path. Default `/metrics`. */
  metricsPath?: string;
  /**
   * Streams generations where the wire protocol can (vLLM), so that `interrupt` keeps the tokens
   * generated so far — when the request is interruptible or reads its tokens as they come; others
   * read one JSON answer over the same connections. Default false (undici, one JSON answer).
   */
  stream?: boolean;
}

/** A backend reached over HTTP with one of the codecs. */
export class HttpInferenceBackend implements InferenceBackend {
  readonly id: string;
  readonly kind: BackendKind;
  readonly baseUrl: string;
  private readonly codec: BackendCodec;

  constructor(private readonly options: HttpInferenceBackendOptions) {
    this.id = options.id;
    this.kind = options.kind;
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.codec = CODECS[options.kind];
  }

  /** True when `interrupt` hands over partial tokens (a streaming protocol, streaming on). */
  get canInterrupt(): boolean {
    return this.options.stream === true && this.codec.streaming !== undefined;
  }

  async generate(request: BackendGenerateRequest): Promise<BackendGeneration> {
    const streaming = this.options.stream ? this.codec.streaming : undefined;
    if (streaming) {
      // Over the client's own connections either way; a token stream only when something reads
      // it (tokens as they come, or an interrupt's partial tokens): a stream costs a wake-up and a
      // parse per token, one JSON answer costs one.
      const isRead = request.onTokens !== undefined || request.interrupt !== undefined;
      const reader = streaming.createReader(this.id, request);
      const answer = await this.options.client.postEventStream(
        `${this.baseUrl}${this.codec.path}`,
        isRead
          ? streaming.buildRequest(request, this.options.model)
          : this.codec.buildRequest(request, this.options.model),
        {
          backendId: this.id,
          signal: request.signal,
          interrupt: request.interrupt,
          deadlineMs: request.deadlineMs,
        },
        (data) => {
          const added = reader.push(data);
          if (added.ids.length > 0) request.onTokens?.(added.ids, added.logprobs);
        },
      );
      // One JSON body: what was asked for, or what a server that ignored `stream` answered.
      if (answer.type === "json") return handOver(this.codec.parseResponse(answer.json, this.id, request));
      return reader.finish({ isInterrupted: answer.isInterrupted });
    }
    const body = await this.options.client.postJson(
      `${this.baseUrl}${this.codec.path}`,
      this.codec.buildRequest(request, this.options.model),
      { backendId: this.id, signal: request.signal, deadlineMs: request.deadlineMs },
    );
    return handOver(this.codec.parseResponse(body, this.id, request));

    function handOver(generation: BackendGeneration): BackendGeneration {
      if (generation.responseIds.length > 0) request.onTokens?.(generation.responseIds, generation.logprobs);
      return generation;
    }
  }

  async scorePrompt(request: BackendScoreRequest): Promise<(number | null)[]> {
    const codec = SCORING_CODECS[this.kind];
    if (!codec) {
      throw inferenceFailure(
        "bad-response",
        `backend ${this.id} is ${this.kind}, which cannot score prompts`,
        {
          backendId: this.id,
        },
      );
    }
    const body = await this.options.client.postJson(
      `${this.baseUrl}${codec.path}`,
      codec.buildRequest(request.promptIds, this.options.model),
      { backendId: this.id, signal: request.signal, deadlineMs: request.deadlineMs },
    );
    return codec.parseResponse(body, this.id, request.promptIds);
  }

  async checkHealth(timeoutMs: number): Promise<boolean> {
    try {
      await this.options.client.getText(`${this.baseUrl}${this.options.healthPath ?? "/health"}`, {
        backendId: this.id,
        deadlineMs: Date.now() + timeoutMs,
      });
      return true;
    } catch (error) {
      if (isInferenceFailure(error)) return false;
      throw error;
    }
  }

  async readReportedCounters(timeoutMs: number): Promise<BackendReportedCounters | null> {
    try {
      const text = await this.options.client.getText(
        `${this.baseUrl}${this.options.metricsPath ?? "/metrics"}`,
        {
          backendId: this.id,
          deadlineMs: Date.now() + timeoutMs,
        },
      );
      return readVllmMetrics(text);
    } catch (error) {
      if (isInferenceFailure(error)) return null;
      throw error;
    }
  }
}
