import { requestFailure } from "@raas/shared";
import { defineHandler, isErasedHandler } from "./define-handler";
import type { AnyTaskHandler, TaskHandler } from "./ports/task-handler.port";

/**
 * Handlers by kind. An unknown kind is a 4xx at submit time, never a failure later. Each is kept
 * erased (`defineHandler`): payloads are parsed with the handler's own schema.
 */
export class HandlerRegistry {
  readonly #handlers = new Map<string, AnyTaskHandler>();

  /** Registers a typed handler, or one already erased with `defineHandler`. */
  register<P, I, R>(input: TaskHandler<P, I, R> | AnyTaskHandler): this {
    const handler = isErasedHandler(input) ? input : defineHandler(input);
    if (this.#handlers.has(handler.kind)) {
      throw new Error(`handler kind "${handler.kind}" is already registered`);
    }
    if (handler.failureReward !== undefined && !Number.isFinite(handler.failureReward)) {
      throw new Error(
        `handler "${handler.kind}" has failureReward ${handler.failureReward}; it must be a finite number`,
      );
    }
    this.#handlers.set(handler.kind, handler);
    return this;
  }

  kinds(): string[] {
    return [...this.#handlers.keys()].sort();
  }

  has(kind: string): boolean {
    return this.#handlers.has(kind);
  }

  /** The handler for `kind`; throws `UNKNOWN_HANDLER_KIND` naming the registered kinds. */
  get(kind: string): AnyTaskHandler {
    const handler = this.#handlers.get(kind);
    if (!handler) {
      const known = this.kinds();
      throw requestFailure(
        "UNKNOWN_HANDLER_KIND",
        `unknown handler kind "${kind}"; registered kinds: ${known.length > 0 ? known.join(", ") : "(none)"}`,
        { details: { kind, known } },
      );
    }
    return handler;
  }

  /** Validates a payload with the handler's schema; throws `VALIDATION_FAILED` listing its issues. */
  parsePayload(kind: string, payload: unknown, at: readonly PropertyKey[] = []): unknown {
    return this.get(kind).parsePayload(payload, at);
  }
}
