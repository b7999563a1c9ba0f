import { StoreHealth } from "@raas/engine";
import {
  abortFailure,
  blamePolicy,
  policyFailure,
  REQUEST_CODES,
  requestFailure,
  sandboxFailure,
  stageFailure,
} from "@raas/shared";
import { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { httpStatusOf } from "./http-status";
import { STORE_UNAVAILABLE_MESSAGE } from "./store-unavailable";
import { toRequestFailure } from "./to-request-failure";

const refused = () =>
  Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

describe("toRequestFailure", () => {
  it("keeps a request failure as it is", () => {
    const error = requestFailure("NOT_FOUND", "no job job_1");
    expect(toRequestFailure(error)).toMatchObject({ failure: error.failure, isUnexpected: false });
  });

  it("unwraps a request failure that tRPC wrapped", () => {
    const cause = requestFailure("UNKNOWN_HANDLER_KIND", 'unknown handler kind "x"');
    const mapped = toRequestFailure(new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause }));
    expect(mapped.failure).toBe(cause.failure);
    expect(mapped.isUnexpected).toBe(false);
  });

  it("turns input validation failures into one sentence with paths", () => {
    const schema = z.object({
      payload: z.object({ items: z.array(z.object({ kind: z.string() })) }),
      n: z.number(),
    });
    const parsed = schema.safeParse({ payload: { items: [{ kind: "a" }, { kind: 1 }] }, n: "x" });
    const mapped = toRequestFailure(new TRPCError({ code: "BAD_REQUEST", cause: parsed.error }));
    expect(mapped.failure.code).toBe("VALIDATION_FAILED");
    expect(mapped.failure.message).toBe(
      "payload.items[1].kind: expected string, received number; n: expected number, received string",
    );
    expect(httpStatusOf(mapped.failure)).toBe(400);
  });

  it("hides unknown errors behind a generic message with a reference", () => {
    const bug = new Error("connection to /var/secret refused");
    const mapped = toRequestFailure(new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: bug }));
    expect(mapped.isUnexpected).toBe(true);
    expect(mapped.failure.code).toBe("INTERNAL");
    expect(mapped.failure.message).toMatch(
      /^internal error \(reference err_\w+\); the server log has the details$/,
    );
    expect(mapped.failure.message).not.toContain("secret");
    // The same thrown object always gets the same reference (formatter and logger agree).
    expect(toRequestFailure(mapped.original).failure.details?.reference).toBe(
      mapped.failure.details?.reference,
    );
  });

  it("maps tRPC's own caller errors onto RaaS codes", () => {
    expect(toRequestFailure(new TRPCError({ code: "NOT_FOUND", message: "No procedure" })).failure.code).toBe(
      "NOT_FOUND",
    );
    expect(toRequestFailure(new TRPCError({ code: "METHOD_NOT_SUPPORTED" })).failure).toMatchObject({
      code: "METHOD_NOT_ALLOWED",
    });
    const json = toRequestFailure(
      new TRPCError({ code: "BAD_REQUEST", message: "Unexpected end", cause: new SyntaxError("x") }),
    );
    expect(json.failure.message).toBe("the request is not valid JSON: Unexpected end");
  });

  it("answers a store connection failure during an outage with 503, a sentence and retry-after", () => {
    const health = new StoreHealth();
    health.reportFailure(refused());
    for (const thrown of [
      refused(),
      new TRPCError({ code: "INTERNAL_SERVER_ERROR", cause: refused() }),
      requestFailure("UNAVAILABLE", "the job store is unavailable; the job was not accepted, retry", {
        cause: refused(),
      }),
    ]) {
      const mapped = toRequestFailure(thrown, health);
      expect(mapped.failure).toMatchObject({
        code: "UNAVAILABLE",
        message: STORE_UNAVAILABLE_MESSAGE,
        details: { retryAfterSec: expect.any(Number) },
      });
      expect(httpStatusOf(mapped.failure)).toBe(503);
      expect(mapped.isUnexpected).toBe(false);
    }
  });

  it("keeps a network error outside a store outage, or without store health, a logged 500", () => {
    for (const health of [new StoreHealth(), null]) {
      const mapped = toRequestFailure(refused(), health);
      expect(mapped.failure.code).toBe("INTERNAL");
      expect(mapped.isUnexpected).toBe(true);
    }
    const down = new StoreHealth();
    down.reportFailure(refused());
    expect(toRequestFailure(new Error("duplicate key value"), down).failure.code).toBe("INTERNAL");
    expect(
      toRequestFailure(requestFailure("NOT_FOUND", "no job", { cause: refused() }), down).failure.code,
    ).toBe("NOT_FOUND");
  });

  it("answers a sandbox's failure as it always did: forbidden 403, anything else 503", () => {
    const refusedPath = toRequestFailure(
      sandboxFailure("forbidden", "path outside the workspace", { details: { code: "forbidden" } }),
    );
    expect(refusedPath).toMatchObject({
      failure: { code: "FORBIDDEN", message: "path outside the workspace", details: { code: "forbidden" } },
      isUnexpected: false,
    });
    expect(httpStatusOf(refusedPath.failure)).toBe(403);
    const crashed = blamePolicy(sandboxFailure("crashed", "the sandbox crashed"), "the agent killed it");
    expect(toRequestFailure(crashed).failure).toMatchObject({ code: "UNAVAILABLE" });
  });

  it("keeps a stage's or an abort's failure a logged INTERNAL: it is no answer to a request", () => {
    for (const thrown of [
      policyFailure("ran out of turns"),
      stageFailure("inference", "backend down"),
      abortFailure("shutdown", "the engine is stopping"),
    ]) {
      const mapped = toRequestFailure(thrown);
      expect(mapped.failure.code).toBe("INTERNAL");
      expect(mapped.failure.message).not.toContain(thrown.message);
      expect(mapped.isUnexpected).toBe(true);
    }
  });

  it("has a status for every request code: 4xx for the caller's, 429/5xx for the rest", () => {
    for (const code of REQUEST_CODES) {
      const failure = requestFailure(code, "x").failure;
      const status = httpStatusOf(failure);
      const isCallers = status >= 400 && status < 500 && status !== 429;
      expect(isCallers, `${code} answers ${status}`).toBe(failure.cause === "caller");
    }
  });
});
