import type { TChatCompletion, TChatCompletionRequest, TGatewayTraces } from "@raas/shared";

/** The per-job OpenAI-compatible inference gateway (implemented by `@raas/inference`'s `InferenceGateway`). */
export interface ControlPlaneGateway {
  /** `GET /v1/models` of the token's session; throws `UNAUTHORIZED` for an unknown or expired token. */
  listModels(token: string): unknown;
  /** One chat completion for the token's job. */
  complete(token: string, request: TChatCompletionRequest, signal?: AbortSignal): Promise<TChatCompletion>;
  /** The job's recorded calls as chains with their token-exactness certificate. */
  buildTraces(jobId: string): Promise<TGatewayTraces>;
}
