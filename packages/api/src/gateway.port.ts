import type { TChatCompletion, TChatCompletionRequest, TGatewayTraces } from "@raas/shared";

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
      stream?: {
        onStart(head: { id: string; created: number; model: string }): void;
        onDelta(delta: { reasoning_content?: string; content?: string }): void;
      };
    },
  ): Promise<TChatCompletion>;
  /** The job's recorded calls as chains with their token-exactness certificate. */
  buildTraces(jobId: string): Promise<TGatewayTraces>;
}
