import type { z } from "zod";
import type { TRole } from "../auth/auth.types";
import type { createCaller } from "../root";

export type ControlPlaneCaller = ReturnType<typeof createCaller>;

/** One REST operation, served by calling a tRPC procedure through `createCaller`. */
export interface RestRoute {
  method: "GET" | "POST" | "DELETE";
  /** Path template; `{name}` segments become input fields of the same name. */
  path: string;
  operationId: string;
  summary: string;
  tag: "jobs" | "system" | "backends" | "benchmarks";
  /** Least role that may call it; `public` needs no token. Documentation only: procedures enforce it. */
  access: "public" | TRole;
  /** Where the rest of the input comes from: the JSON body, the query string, or nowhere. */
  inputFrom: "body" | "query" | "none";
  /** The procedure's input schema (documents body/query/path parameters). */
  request: z.ZodType | null;
  response: z.ZodType;
  /** HTTP status of a success; a function can pick it from the output (e.g. 201 for created). */
  successStatus: number | ((output: unknown) => number);
  /** True for long-polls that should stop when the client disconnects. Default false. */
  usesAbortSignal?: boolean;
  /** True when the server may lack what the route needs (e.g. an inference pool): documents a 503. */
  mayBeUnavailable?: boolean;
  /** True when the request can contradict stored state (e.g. a taken id): documents a 409. */
  mayConflict?: boolean;
  call(caller: ControlPlaneCaller, input: unknown): Promise<unknown>;
}

/** Declares a route with the input typed by its schema (no casts at the call sites). */
export function defineRoute<S extends z.ZodType | null>(
  route: Omit<RestRoute, "request" | "call"> & {
    request: S;
    call(caller: ControlPlaneCaller, input: S extends z.ZodType ? z.input<S> : undefined): Promise<unknown>;
  },
): RestRoute {
  return route as RestRoute;
}
