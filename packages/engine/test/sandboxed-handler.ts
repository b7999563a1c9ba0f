import type { TStage } from "@raas/shared";
import { stageFailure } from "@raas/shared";
import { z } from "zod";
import type { TaskHandler } from "../src/ports/task-handler.port";
import { asStageFailure } from "../src/stage-failure";
import { type Deferred, deferred, type FakeSandboxRuntime } from "./fake-sandbox-runtime";

export type Point =
  | "init:before-create"
  | "init:after-create"
  | "init:end"
  | "run:end"
  | "eval:before-create"
  | "eval:end";

/** Where the handler stops when a test armed the point; unarmed points pass at once. */
export class Points {
  readonly #armed = new Map<Point, { reached: Deferred; release: Deferred }>();

  arm(point: Point): { reached: Promise<void>; release: () => void } {
    const gate = { reached: deferred(), release: deferred() };
    this.#armed.set(point, gate);
    return { reached: gate.reached.promise, release: () => gate.release.resolve() };
  }

  async pass(point: Point): Promise<void> {
    const gate = this.#armed.get(point);
    if (!gate) return;
    gate.reached.resolve();
    await gate.release.promise;
  }
}

/** Handler calls in progress; `idle()` resolves once none is (at once when none is now). */
export class Busy {
  #count = 0;
  readonly #waiters: Array<() => void> = [];

  get count(): number {
    return this.#count;
  }

  enter(): void {
    this.#count += 1;
  }

  leave(): void {
    this.#count -= 1;
    if (this.#count === 0) for (const resolve of this.#waiters.splice(0)) resolve();
  }

  idle(): Promise<void> {
    if (this.#count === 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}

export /**
 * The INIT of an agent handler, as `defineAgentHandler` does it: start the sandbox through the
 * runtime with the stage's signal, then hand its closing to the job's end. EVAL may open a
 * sandbox of its own, closed when the stage ends.
 */
function sandboxedHandler(
  runtime: FakeSandboxRuntime,
  points: Points,
  options: { failStage?: TStage; evalSandbox?: boolean },
  busy: Busy = new Busy(),
): TaskHandler<Record<string, never>, { sandboxId: string }, null> {
  const tracked = async <T>(work: () => Promise<T>): Promise<T> => {
    busy.enter();
    try {
      return await work();
    } finally {
      busy.leave();
    }
  };
  const failIf = (stage: TStage) => {
    if (options.failStage === stage) throw stageFailure("sandbox", `${stage} broke`);
  };
  return {
    kind: "sandboxed",
    payloadSchema: z.object({}).strict() as z.ZodType<Record<string, never>>,
    init: (ctx) =>
      tracked(async () => {
        await points.pass("init:before-create");
        const sandbox = await asStageFailure("sandbox", "starting the sandbox failed", ctx.signal, () =>
          runtime.create({ jobId: ctx.job.id }, ctx.signal),
        );
        await points.pass("init:after-create");
        ctx.deferToJobEnd(() => sandbox.close());
        ctx.defer(() => points.pass("init:end"));
        failIf("init");
        return { sandboxId: sandbox.id };
      }),
    run: (ctx) =>
      tracked(async () => {
        ctx.defer(() => points.pass("run:end"));
        failIf("run");
        return null;
      }),
    eval: (ctx) =>
      tracked(async () => {
        ctx.defer(() => points.pass("eval:end"));
        if (options.evalSandbox) {
          await points.pass("eval:before-create");
          const sandbox = await asStageFailure("sandbox", "starting the sandbox failed", ctx.signal, () =>
            runtime.create({ jobId: ctx.job.id }, ctx.signal),
          );
          ctx.defer(() => sandbox.close());
        }
        failIf("eval");
        return { reward: 1 };
      }),
  };
}
