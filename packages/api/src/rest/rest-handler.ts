import type { IncomingMessage, ServerResponse } from "node:http";
import { requestFailure } from "@raas/shared";
import type { ControlPlaneContext } from "../context";
import { readJsonBody } from "../http/read-json-body";
import { sendJson } from "../http/send-json";
import { createCaller } from "../root";
import { coerceQuery, propertyTypesOf } from "./coerce-query";
import type { RestRoute } from "./rest-route.types";

export interface RestCallOptions {
  req: IncomingMessage;
  res: ServerResponse;
  route: RestRoute;
  params: Record<string, string>;
  query: URLSearchParams;
  ctx: ControlPlaneContext;
  maxBodyBytes: number;
  /** Aborts when the client goes away (long-polls stop waiting). */
  signal?: AbortSignal;
}

const queryTypesCache = new WeakMap<RestRoute, ReturnType<typeof propertyTypesOf>>();

/** Builds the procedure input from path, query and body, calls the procedure, writes the JSON reply. */
export async function handleRestCall(options: RestCallOptions): Promise<void> {
  const { res, route, ctx } = options;
  const input = await buildInput(options);
  const caller = createCaller(ctx, options.signal ? { signal: options.signal } : {});
  const output = await callProcedure(caller, route.procedurePath, input);
  sendJson(res, successStatusOf(route, output), output);
}

/** Calls `jobs.submit` etc. on a server-side caller (a proxy keyed by the procedure path). */
function callProcedure(caller: object, procedurePath: string, input: unknown): Promise<unknown> {
  let target: unknown = caller;
  for (const key of procedurePath.split(".")) target = (target as Record<string, unknown>)[key];
  if (typeof target !== "function") throw new Error(`no procedure ${procedurePath} behind a REST route`);
  return (target as (input: unknown) => Promise<unknown>)(input);
}

function successStatusOf(route: RestRoute, output: unknown): number {
  const declared = route.successStatus ?? 200;
  if (declared !== "created") return declared;
  const created = typeof output === "object" && output !== null && "created" in output && output.created;
  return created === true ? 201 : 200;
}

async function buildInput(options: RestCallOptions): Promise<unknown> {
  const { route, params, query, req } = options;
  switch (route.inputFrom) {
    case "body": {
      const body = await readJsonBody(req, options.maxBodyBytes);
      if (body === undefined) {
        throw requestFailure(
          "BAD_REQUEST",
          `${route.method} ${route.path} needs a JSON body; send it with 'Content-Type: application/json'`,
        );
      }
      if (Object.keys(params).length === 0) return body;
      if (typeof body !== "object" || body === null || Array.isArray(body)) {
        throw requestFailure("VALIDATION_FAILED", "input: expected object");
      }
      return { ...body, ...params };
    }
    case "query": {
      let types = queryTypesCache.get(route);
      if (!types) {
        types = propertyTypesOf(route.request);
        queryTypesCache.set(route, types);
      }
      return { ...coerceQuery(query, types), ...params };
    }
    case "none":
      if ([...query.keys()].length > 0) {
        throw requestFailure("VALIDATION_FAILED", `${route.method} ${route.path} takes no query parameters`);
      }
      return Object.keys(params).length > 0 ? params : undefined;
  }
}
