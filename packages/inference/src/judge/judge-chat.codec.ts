import { inferenceFailure } from "../inference-failure";

/** One message of a judge's chat: the grader's instructions and the material to grade. */
interface JudgeMessage {
  role: "system" | "user";
  content: string;
}

/** What a judge call asks for. */
export interface JudgeRequest {
  messages: readonly JudgeMessage[];
  /** Most tokens of the judge's reply. */
  maxTokens: number;
  /** Sampling temperature of the judge; 0 asks for its most likely grade. */
  temperature: number;
  /** How long the call may take, in ms (every failover attempt included). */
  timeoutMs: number;
  /** Aborts the call (the job was cancelled). */
  signal?: AbortSignal;
}

/** The judge's reply: its visible text and who gave it. */
export interface JudgeReply {
  /** The reply's `content` (a reasoning model's thinking is not part of it). */
  text: string;
  /** The model that answered: the response's `model`, else the one the deployment named. */
  model: string;
  /** The judge backend that answered. */
  backendId: string;
}

/** The body of an OpenAI-compatible `/v1/chat/completions` call (vLLM, SGLang, any such server). */
export function buildJudgeChatBody(request: JudgeRequest, model: string): unknown {
  return {
    model,
    messages: request.messages.map(({ role, content }) => ({ role, content })),
    max_tokens: request.maxTokens,
    temperature: request.temperature,
    stream: false,
  };
}

/**
 * Reads a chat completion: the first choice's `content` (a string) and the answering model. A body
 * without one is a `bad-response` failure naming what is missing. Pure.
 */
export function parseJudgeChatBody(body: unknown, backend: { id: string; modelName: string }): JudgeReply {
  const bad = (what: string) =>
    inferenceFailure("bad-response", `judge backend ${backend.id}: ${what}`, { backendId: backend.id });
  if (typeof body !== "object" || body === null) throw bad("the answer is not a JSON object");
  const { choices, model } = body as { choices?: unknown; model?: unknown };
  if (!Array.isArray(choices) || choices.length === 0) throw bad("the answer has no choices");
  const message = (choices[0] as { message?: unknown } | null)?.message;
  const content = (message as { content?: unknown } | null | undefined)?.content;
  if (typeof content !== "string") throw bad("choices[0].message.content is not a string");
  return {
    text: content,
    model: typeof model === "string" && model.length > 0 ? model : backend.modelName,
    backendId: backend.id,
  };
}
