import type { ServerResponse } from "node:http";
import { requestFailure } from "@raas/shared";
import { sendRestError } from "./send-json";

/** Caps of one gateway session (one job's harness, behind its sandbox's bridge). */
export interface GatewaySessionLimits {
  /**
   * Most chat requests one session may have open at once (its body being read, the model
   * sampling, the answer streaming). A harness makes one call at a time, a few with sub-agents.
   * Default 16.
   */
  maxInflightPerSession: number;
  /** What `retry-after` says past the cap, in seconds. Default 1. */
  retryAfterSec: number;
}

const DEFAULT_GATEWAY_SESSION_LIMITS: GatewaySessionLimits = {
  maxInflightPerSession: 16,
  retryAfterSec: 1,
};

/**
 * Counts open chat requests per session token. Past the cap a request is answered 429 at once,
 * before its body is read, and its connection closed (`connection: close`: a half-sent body is
 * not waited for), so no session holds more of the server's connections than the cap.
 */
export class GatewaySessionLimiter {
  readonly #limits: GatewaySessionLimits;
  readonly #open = new Map<string, number>();
  #refused = 0;

  constructor(limits: Partial<GatewaySessionLimits> = {}) {
    this.#limits = { ...DEFAULT_GATEWAY_SESSION_LIMITS, ...limits };
  }

  /** Requests refused so far for being past a session's cap. */
  get refused(): number {
    return this.#refused;
  }

  /** Chat requests of `token`'s session open right now. */
  openRequests(token: string): number {
    return this.#open.get(token) ?? 0;
  }

  /**
   * A slot for one request of `token`, released when `res` closes (however it ends); or false
   * after answering 429 (counted) with `sendError` (the route's error envelope; default REST's).
   */
  admit(token: string, res: ServerResponse, sendError: typeof sendRestError = sendRestError): boolean {
    const open = this.#open.get(token) ?? 0;
    const { maxInflightPerSession, retryAfterSec } = this.#limits;
    if (open >= maxInflightPerSession) {
      this.#refused += 1;
      const error = requestFailure(
        "TOO_MANY_REQUESTS",
        `this gateway session already has ${maxInflightPerSession} requests open; finish one first (retry in ${retryAfterSec} s)`,
        { details: { retryAfterSec, maxInflightPerSession } },
      );
      sendError(res, error.failure, { connection: "close", "retry-after": String(retryAfterSec) });
      return false;
    }
    this.#open.set(token, open + 1);
    res.once("close", () => {
      const left = (this.#open.get(token) ?? 1) - 1;
      if (left === 0) this.#open.delete(token);
      else this.#open.set(token, left);
    });
    return true;
  }
}
