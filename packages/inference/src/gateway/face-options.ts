/** One server-sent event: its name (`event:`) and its JSON (`data:`), which repeats the name as `type`. */
export interface GatewayEvent {
  event: string;
  data: Record<string, unknown>;
}

/** How a call in another API shape (Anthropic Messages, OpenAI Responses) is carried out. */
export interface FaceOptions {
  /** Aborts the generation (the harness went away). */
  signal?: AbortSignal;
  /**
   * Streams the answer as that shape's server-sent events, called once the request is accepted
   * (errors before the first event are the request's own). Without it the answer comes whole.
   */
  onEvent?: (event: GatewayEvent) => void;
  /** The harness's `User-Agent` header, kept on the call's record. */
  userAgent?: string;
}
