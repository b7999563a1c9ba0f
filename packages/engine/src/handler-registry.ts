import { RaasError } from "@raas/shared";
import type { TaskHandler } from "./ports/task-handler.port";

/** Handlers by kind. An unknown kind is a 4xx at submit time, never a failure later. */
export class HandlerRegistry {
  readonly #handlers = new Map<string, TaskHandler>();

  register<P, I, R>(handler: TaskHandler<P, I, R>): this {
    if (this.#handlers.has(handler.kind)) {
      throw new Error(`handler kind "${handler.kind}" is already registered`);
    }
    if (handler.failureReward !== undefined && !Number.isFinite(handler.failureReward)) {
      throw new Error(
        `handler "${handler.kind}" has failureReward ${handler.failureReward}; it must be a finite number`,
      );
    }
    this.#handlers.set(handler.kind, handler as unknown as TaskHandler);
    return this;
  }

  kinds(): string[] {
    return [...this.#handlers.keys()].sort();
  }

  has(kind: string): boolean {
    return this.#handlers.has(kind);
  }

  /** The handler for `kind`; throws `UNKNOWN_HANDLER_KIND` naming the registered kinds. */
  get(kind: string): TaskHandler {
    const handler = this.#handlers.get(kind);
    if (!handler) {
      const known = this.kinds();
      throw new RaasError(
        "UNKNOWN_HANDLER_KIND",
        `unknown handler kind "${kind}"; registered kinds: ${known.length > 0 ? known.join(", ") : "(none)"}`,
        { details: { kind, known } },
      );
    }
    return handler;
  }

  /** Validates a payload with the handler's parser; throws `VALIDATION_FAILED` with its message. */
  parsePayload(kind: string, payload: unknown): unknown {
    const handler = this.get(kind);
    try {
      return handler.parsePayload(payload);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new RaasError("VALIDATION_FAILED", `invalid payload for handler "${kind}": ${reason}`, {
        details: { kind },
      });
    }
  }
}
