import { failureOf } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineHandler } from "./define-handler";
import { HandlerRegistry } from "./handler-registry";
import type { JobRecord } from "./ports/job-record.types";
import type { StageContext, TaskHandler } from "./ports/task-handler.port";

const ZCountPayload = z.object({ count: z.number().int().min(1), label: z.string().default("n") }).strict();
type TCountPayload = z.infer<typeof ZCountPayload>;

/** A typed handler that records every value its typed stages receive. */
function countHandler() {
  const seen: { init: TCountPayload[]; run: Array<{ doubled: number }>; eval: number[] } = {
    init: [],
    run: [],
    eval: [],
  };
  const handler: TaskHandler<TCountPayload, { doubled: number }, number> = {
    kind: "count",
    payloadSchema: ZCountPayload,
    resultSchema: z.object({ label: z.string() }),
    init: async (ctx) => {
      seen.init.push(ctx.payload);
      return { doubled: ctx.payload.count * 2 };
    },
    run: async (ctx) => {
      seen.run.push(ctx.init);
      return ctx.init.doubled + 1;
    },
    eval: async (ctx) => {
      seen.eval.push(ctx.run);
      return { reward: ctx.run, result: { label: ctx.payload.label } };
    },
  };
  return { handler, seen };
}

function stageContext(payload: unknown): StageContext<unknown> {
  return {
    job: { id: "job_test" } as Readonly<JobRecord>,
    payload,
    stage: "init",
    signal: new AbortController().signal,
    defer: () => {},
    deferToJobEnd: () => {},
    record: { turn: () => {}, toolCall: () => {}, sandboxEvent: () => {} },
  };
}

describe("defineHandler", () => {
  it("runs the typed stages with the parsed payload and their own outputs", async () => {
    const { handler, seen } = countHandler();
    const erased = defineHandler(handler);
    const payload = erased.parsePayload({ count: 3 });
    expect(payload).toEqual({ count: 3, label: "n" });
    const ctx = stageContext(payload);
    const init = await erased.init(ctx);
    const run = await erased.run({ ...ctx, init });
    const outcome = await erased.eval({ ...ctx, init, run });
    expect(outcome).toEqual({ reward: 7, result: { label: "n" } });
    expect(seen).toEqual({ init: [{ count: 3, label: "n" }], run: [{ doubled: 6 }], eval: [7] });
    expect(erased.payloadSchema).toBe(ZCountPayload);
    expect(erased.resultSchema).toBe(handler.resultSchema);
  });

  it("rejects a wrongly-typed payload with the handler's schema error, at submit and at a stage", async () => {
    const { handler, seen } = countHandler();
    const erased = defineHandler(handler);
    let thrown: unknown;
    try {
      erased.parsePayload({ count: "three", extra: 1 });
    } catch (error) {
      thrown = error;
    }
    const failure = failureOf(thrown);
    expect(failure?.kind === "request" && failure.code).toBe("VALIDATION_FAILED");
    expect(failure?.message).toMatch(
      /^invalid payload for handler "count": payload\.count: .*number.*; a count payload accepts: count, label$/,
    );
    expect(failure?.kind === "request" && failure.details?.issues).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: "payload.count" })]),
    );
    // A payload that did not come from the handler's own parse is parsed before a stage sees it.
    await expect(erased.init(stageContext({ count: "three" }))).rejects.toThrow(
      /invalid payload for handler "count": payload\.count: /,
    );
    await expect(erased.init(stageContext({ count: 0 }))).rejects.toThrow(/count: .*>=1/);
    expect(seen.init).toEqual([]);
    // A well-formed payload that was not parsed yet gets its defaults before the stage runs.
    await erased.init(stageContext({ count: 2 }));
    expect(seen.init).toEqual([{ count: 2, label: "n" }]);
  });

  it("gives RUN and EVAL only the outputs this handler's own INIT and RUN produced", async () => {
    const { handler, seen } = countHandler();
    const erased = defineHandler(handler);
    const ctx = stageContext(erased.parsePayload({ count: 1 }));
    const other = defineHandler(countHandler().handler);
    const foreignInit = await other.init(stageContext(other.parsePayload({ count: 5 })));
    await expect(erased.run({ ...ctx, init: { doubled: "lots" } })).rejects.toThrow(
      'handler "count" was given an INIT output it did not produce',
    );
    await expect(erased.run({ ...ctx, init: foreignInit })).rejects.toThrow(/INIT output it did not produce/);
    const init = await erased.init(ctx);
    await expect(erased.eval({ ...ctx, init, run: 3 })).rejects.toThrow(
      'handler "count" was given a RUN output it did not produce',
    );
    expect(seen.run).toEqual([]);
    expect(seen.eval).toEqual([]);
  });
});

describe("HandlerRegistry with erased handlers", () => {
  it("keeps an erased handler as it is and rejects a bad payload by kind", () => {
    const erased = defineHandler(countHandler().handler);
    const registry = new HandlerRegistry().register(erased);
    expect(registry.get("count")).toBe(erased);
    expect(() => registry.parsePayload("count", { count: 1.5 })).toThrow(
      /invalid payload for handler "count": payload\.count: .*expected int/,
    );
    expect(registry.parsePayload("count", { count: 4, label: "x" })).toEqual({ count: 4, label: "x" });
  });
});
