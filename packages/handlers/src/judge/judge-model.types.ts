// The judge as this package needs it. `@raas/inference`'s `JudgeBackendPool` has this shape; the
// composition root hands one in (adapters do not import each other).

/** One message of a judge's chat. */
export interface JudgeMessage {
  role: "system" | "user";
  content: string;
}

/** A judge model served from the backends the deployment names for judging (never the policy's). */
export interface JudgeModel {
  /**
   * One chat with the judge. Resolves with its reply's visible text and the model and backend that
   * answered; rejects with an `inference` failure when no judge backend gives an answer.
   */
  complete(request: {
    messages: readonly JudgeMessage[];
    maxTokens: number;
    temperature: number;
    timeoutMs: number;
    signal?: AbortSignal;
  }): Promise<{ text: string; model: string; backendId: string }>;
}
