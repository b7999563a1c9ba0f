import type { AgentLoopRunner } from "./agent/agent-loop-runner.types";
import { payloadValidationError } from "./payload-error";
import type { AnyTaskHandler, RunContext, TaskHandler } from "./ports/task-handler.port";

/** A value remembered for the object the engine hands back (a box, so `undefined` is a value too). */
type Remembered<T> = WeakMap<object, { value: T }>;

const erased = new WeakSet<object>();

/** True for the wrappers `defineHandler` made (and only those). */
export function isErasedHandler(handler: object): handler is AnyTaskHandler {
  return erased.has(handler);
}

/**
 * Erases a typed handler's payload, INIT and RUN types so handlers of every kind fit in one list
 * and one registry, without a cast. The wrapper parses payloads with the handler's own
 * `payloadSchema` (a payload it did not parse itself is parsed again before a stage sees it),
 * and gives RUN and EVAL only what this handler's own INIT and RUN returned.
 */
export function defineHandler<P, I, R>(handler: TaskHandler<P, I, R>): AnyTaskHandler {
  const payloads: Remembered<P> = new WeakMap();
  const inits: Remembered<I> = new WeakMap();
  const runs: Remembered<R> = new WeakMap();

  const parse = (raw: unknown, at: readonly PropertyKey[] = []): P => {
    const result = handler.payloadSchema.safeParse(raw);
    if (!result.success)
      throw payloadValidationError(handler.kind, handler.payloadSchema, result.error.issues, at);
    if (isObject(result.data)) payloads.set(result.data, { value: result.data });
    return result.data;
  };
  const payloadOf = (raw: unknown): P => (isObject(raw) ? payloads.get(raw)?.value : undefined) ?? parse(raw);
  const recalled = <T>(map: Remembered<T>, key: unknown, what: string): T => {
    const hit = isObject(key) ? map.get(key) : undefined;
    if (!hit) throw new Error(`handler "${handler.kind}" was given ${what} it did not produce`);
    return hit.value;
  };
  const remember = <T>(map: Remembered<T>, value: T): object => {
    const key = isObject(value) ? value : {};
    map.set(key, { value });
    return key;
  };

  const imageOf = handler.imageOf;
  const wrapper: AnyTaskHandler = {
    kind: handler.kind,
    ...(handler.description !== undefined && { description: handler.description }),
    ...(handler.failureReward !== undefined && { failureReward: handler.failureReward }),
    payloadSchema: handler.payloadSchema,
    ...(handler.resultSchema !== undefined && { resultSchema: handler.resultSchema }),
    parsePayload: parse,
    ...(imageOf && { imageOf: (raw: unknown, job) => imageOf(payloadOf(raw), job) }),
    async init(ctx) {
      return remember(inits, await handler.init({ ...ctx, payload: payloadOf(ctx.payload) }));
    },
    async run(ctx) {
      const init = recalled(inits, ctx.init, "an INIT output");
      return remember(runs, await handler.run({ ...ctx, payload: payloadOf(ctx.payload), init }));
    },
    ...(handler.runWithAgent !== undefined && {
      async runWithAgent(ctx: RunContext<unknown, unknown>, runner: AgentLoopRunner) {
        const init = recalled(inits, ctx.init, "an INIT output");
        const runWithAgent = handler.runWithAgent as NonNullable<typeof handler.runWithAgent>;
        return remember(runs, await runWithAgent({ ...ctx, payload: payloadOf(ctx.payload), init }, runner));
      },
    }),
    async eval(ctx) {
      const init = recalled(inits, ctx.init, "an INIT output");
      const run = recalled(runs, ctx.run, "a RUN output");
      return handler.eval({ ...ctx, payload: payloadOf(ctx.payload), init, run });
    },
  };
  erased.add(wrapper);
  return wrapper;
}

function isObject(value: unknown): value is object {
  return (typeof value === "object" && value !== null) || typeof value === "function";
}
