import { StoreHealth } from "@raas/engine";
import { RaasError } from "@raas/shared";
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { STORE_UNAVAILABLE_MESSAGE } from "./store-unavailable";
import { toRaasError } from "./to-raas-error";

const refused = () =>
  Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

describe("toRaasError", () => {
  it("keeps a RaasError as it is", () => {
    const error = new RaasError("NOT_FOUND", "no job job_1");
    expect(toRaasError(error)).toMatchObject({ error, isUnexpected: false });
  });

  it("unwraps a RaasError that tRPC wrapped", () => {
    const cause = new RaasError("UNKNOWN_HANDLER_KIND", 'unknown handler kind "x"');
    const mapped = toRaasError(new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause }));
    expect(mapped.error).toBe(cause);
    expect(mapped.isUnexpected).toBe(false);
  });

  it("turns input validation failures into one sentence with paths", () => {
    const schema = z.object({
      payload: z.object({ items: z.array(z.object({ kind: z.string() })) }),
      n: z.number(),
    });
    const parsed = schema.safeParse({ payload: { items: [{ kind: "a" }, { kind: 1 }] }, n: "x" });
    const mapped = toRaasError(new TRPCError({ code: "BAD_REQUEST", cause: parsed.error }));
    expect(mapped.error.code).toBe("VALIDATION_FAILED");
    expect(mapped.error.message).toBe(
      "payload.items[1].kind: expected string, received number; n: expected number, received string",
    );
    expect(mapped.error.httpStatus).toBe(400);
  });

  it("hides unknown errors behind a generic message with a reference", () => {
    const bug = new Error("connection to /var/secret refused");
    const mapped = toRaasError(new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: bug }));
    expect(mapped.isUnexpected).toBe(true);
    expect(mapped.error.code).toBe("INTERNAL");
    expect(mapped.error.message).toMatch(
      /^internal error \(reference err_\w+\); the server log has the details$/,
    );
    expect(mapped.error.message).not.toContain("secret");
    // The same thrown object always gets the same reference (formatter and logger agree).
    expect(toRaasError(mapped.original).error.details?.reference).toBe(mapped.error.details?.reference);
  });

  it("maps tRPC's own caller errors onto RaaS codes", () => {
    expect(toRaasError(new TRPCError({ code: "NOT_FOUND", message: "No procedure" })).error.code).toBe(
      "NOT_FOUND",
    );
    expect(toRaasError(new TRPCError({ code: "METHOD_NOT_SUPPORTED" })).error.httpStatus).toBe(405);
    const json = toRaasError(
      new TRPCError({ code: "BAD_REQUEST", message: "Unexpected end", cause: new SyntaxError("x") }),
    );
    expect(json.error.message).toBe("the request is not valid JSON: Unexpected end");
  });

  it("answers a store connection failure during an outage with 503, a sentence and retry-after", () => {
    const health = new StoreHealth();
    health.reportFailure(refused());
    for (const thrown of [
      refused(),
      new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: refused() }),
      new RaasError("UNAVAILABLE", "the job store is unavailable; the job was not accepted, retry", {
        cause: refused(),
      }),
    ]) {
      const mapped = toRaasError(thrown, health);
      expect(mapped.error).toMatchObject({
        code: "UNAVAILABLE",
        message: STORE_UNAVAILABLE_MESSAGE,
        details: { retryAfterSec: expect.any(Number) },
      });
      expect(mapped.error.httpStatus).toBe(503);
      expect(mapped.isUnexpected).toBe(false);
    }
  });

  it("keeps a network error outside a store outage, or without store health, a logged 500", () => {
    for (const health of [new StoreHealth(), null]) {
      const mapped = toRaasError(refused(), health);
      expect(mapped.error.code).toBe("INTERNAL");
      expect(mapped.isUnexpected).toBe(true);
    }
    const down = new StoreHealth();
    down.reportFailure(refused());
    expect(toRaasError(new Error("duplicate key value"), down).error.code).toBe("INTERNAL");
    expect(toRaasError(new RaasError("NOT_FOUND", "no job", { cause: refused() }), down).error.code).toBe(
      "NOT_FOUND",
    );
  });
});
