import type {
  TChatCompletion,
  TChatCompletionRequest,
  TGatewayCallRecord,
  TGatewayTraces,
} from "@raas/shared";

/** One server-sent event of an answer in Anthropic's or the Responses API's shape. */
export interface GatewayEvent {
  event: string;
  data: Record<string, unknown>;
}

/** A call in another API shape: `onEvent` streams its events (the first once the request is accepted). */
interface GatewayFaceOptions {
  signal?: AbortSignal;
  onEvent?: (event: GatewayEvent) => void;
  /** The harness's `User-Agent` header, kept on the call's record. */
  userAgent?: string;
}

/** The per-job OpenAI-compatible inference gateway (implemented by `@raas/inference`'s `InferenceGateway`). */
export interface ControlPlaneGateway {
  /** `GET /v1/models` of the token's session; throws `UNAUTHORIZED` for an unknown or expired token. */
  listModels(token: string): unknown;
  /**
   * One chat completion for the token's job. With `stream`, `onStart` is called once the request
   * is accepted (failures before it are the request's; after it they end the stream) and
   * `onDelta` with reasoning and content text as the tokens arrive.
   */
  complete(
    token: string,
    request: TChatCompletionRequest,
    options?: {
      signal?: AbortSignal;
      userAgent?: string;
      stream?: {
        onStart(head: { id: string; created: number; model: string }): void;
        onDelta(delta: { reasoning_content?: string; content?: string }): void;
      };
    },
  ): Promise<TChatCompletion>;
  /**
   * Anthropic's `POST /v1/messages` (body as sent; parsed by the gateway, a 4xx when malformed),
   * recorded as a chat completion call of the same session.
   */
  createMessage(token: string, body: unknown, options?: GatewayFaceOptions): Promise<unknown>;
  /** Anthropic's `POST /v1/messages/count_tokens`. */
  countMessageTokens(token: string, body: unknown): Promise<{ input_tokens: number }>;
  /** OpenAI's `POST /v1/responses`, recorded as a chat completion call of the same session. */
  createResponse(token: string, body: unknown, options?: GatewayFaceOptions): Promise<unknown>;
  /** The token's session; throws `UNAUTHORIZED` for an unknown or expired token. */
  authorize(token: string): unknown;
  /** The job's recorded calls as chains with their token-exactness certificate. */
  buildTraces(jobId: string): Promise<TGatewayTraces>;
  /** The job's recorded calls in arrival order. */
  listCalls(jobId: string): Promise<TGatewayCallRecord[]>;
}
