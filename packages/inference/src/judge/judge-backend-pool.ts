import { requestFailure } from "@raas/shared";
import { JsonHttpClient } from "../http/json-http-client";
import {
  type InferenceFailure,
  inferenceFailure,
  isInferenceFailure,
  isRetryable,
} from "../inference-failure";
import {
  buildJudgeChatBody,
  type JudgeReply,
  type JudgeRequest,
  parseJudgeChatBody,
} from "./judge-chat.codec";

/** A backend the deployment names for judging: an OpenAI-compatible chat server and its model. */
export interface JudgeBackendRegistration {
  id: string;
  /** Base URL without trailing slash; calls go to `<baseUrl>/v1/chat/completions`. */
  baseUrl: string;
  /** The judge model's served name, sent as `model` and stored with every grade. */
  modelName: string;
}

export interface JudgeBackendPoolOptions {
  backends: readonly JudgeBackendRegistration[];
  /** Shared pooled HTTP client; default a new one (closed by `close()`). */
  client?: JsonHttpClient;
  now?: () => number;
}

/** A judge backend as the pool sees it. */
export interface JudgeBackendView extends JudgeBackendRegistration {
  inflight: number;
  /** When its last call failed as an outage (epoch ms); null when its last call did not. */
  lastOutageAtMs: number | null;
}

/**
 * The backends that serve judge models — a pool of its own, apart from the policy's
 * `RoutedInferencePool`: nothing routes policy turns here, and judge calls go nowhere else. Text
 * in, text out over `/v1/chat/completions` (a judge's tokens are not training data). Each call goes
 * to the backend with the fewest calls in flight, those whose last call was an outage last; an
 * outage (no connection, 502/503/504) moves the call to the next backend, once each. Every failure
 * is an `InferenceFailure` (connection, http-status, bad-response, deadline, aborted, no-backend).
 */
export class JudgeBackendPool {
  private readonly client: JsonHttpClient;
  private readonly ownsClient: boolean;
  private readonly now: () => number;
  private readonly backends: JudgeBackendView[];

  constructor(options: JudgeBackendPoolOptions) {
    const ids = new Set<string>();
    for (const backend of options.backends) {
      if (ids.has(backend.id))
        throw requestFailure("VALIDATION_FAILED", `judge backend ${backend.id} is named twice`);
      ids.add(backend.id);
    }
    this.backends = options.backends.map((b) => ({ ...b, inflight: 0, lastOutageAtMs: null }));
    this.ownsClient = options.client === undefined;
    this.client = options.client ?? new JsonHttpClient();
    this.now = options.now ?? Date.now;
  }

  listBackends(): JudgeBackendView[] {
    return this.backends.map((backend) => ({ ...backend }));
  }

  /** One judge call; see the class comment for the choice of backend and the failover. */
  async complete(request: JudgeRequest): Promise<JudgeReply> {
    if (this.backends.length === 0) {
      throw inferenceFailure("no-backend", "no judge backend is configured (RAAS_JUDGE_BACKENDS)");
    }
    const deadlineMs = this.now() + request.timeoutMs;
    let lastFailure: InferenceFailure | null = null;
    for (const backend of this.inOrderOfPreference()) {
      backend.inflight += 1;
      try {
        const body = await this.client.postJson(
          `${backend.baseUrl}/v1/chat/completions`,
          buildJudgeChatBody(request, backend.modelName),
          {
            backendId: backend.id,
            deadlineMs,
            ...(request.signal && { signal: request.signal }),
          },
        );
        backend.lastOutageAtMs = null;
        return parseJudgeChatBody(body, backend);
      } catch (error) {
        const failure = asInferenceFailure(error, backend.id);
        if (!isRetryable(failure.failure.inference)) throw failure;
        backend.lastOutageAtMs = this.now();
        lastFailure = failure;
      } finally {
        backend.inflight -= 1;
      }
    }
    throw lastFailure ?? inferenceFailure("no-backend", "no judge backend could take the call");
  }

  async close(): Promise<void> {
    if (this.ownsClient) await this.client.close();
  }

  /** Fewest in flight first; a backend whose last call was an outage after every other. */
  private inOrderOfPreference(): JudgeBackendView[] {
    return [...this.backends].sort(
      (a, b) =>
        Number(a.lastOutageAtMs !== null) - Number(b.lastOutageAtMs !== null) || a.inflight - b.inflight,
    );
  }
}

function asInferenceFailure(error: unknown, backendId: string): InferenceFailure {
  if (isInferenceFailure(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return inferenceFailure("bad-response", `judge backend ${backendId}: ${message}`, {
    backendId,
    cause: error,
  });
}
