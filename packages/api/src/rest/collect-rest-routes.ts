import { z } from "zod";
import type { ProcedureMeta } from "../openapi/openapi-meta.types";
import type { RestRoute } from "./rest-route.types";

/** What `collectRestRoutes` reads of a tRPC router: its flat table of procedures by dotted path. */
interface RouterLike {
  _def: { procedures: object };
}

interface ProcedureDef {
  type: "query" | "mutation" | "subscription";
  meta?: ProcedureMeta;
  inputs: unknown[];
  output?: unknown;
}

/**
 * The REST routes of a router: one per procedure with `meta.openapi`, in router order. Path,
 * method and texts come from the meta, schemas from `.input()`/`.output()`, the role from the
 * builder's `meta.role`. Throws at start-up on a declaration that cannot be served (a missing
 * output schema or role, a path parameter the input lacks, two routes on one method + path).
 */
export function collectRestRoutes(router: RouterLike): RestRoute[] {
  const routes: RestRoute[] = [];
  const seen = new Set<string>();
  const procedures = Object.entries(router._def.procedures) as Array<[string, { _def: ProcedureDef }]>;
  for (const [procedurePath, procedure] of procedures) {
    const def = procedure._def;
    const openapi = def.meta?.openapi;
    if (!openapi) continue;
    const where = `procedure ${procedurePath} (${openapi.method} ${openapi.path})`;
    const role = def.meta?.role;
    if (role === undefined) throw new Error(`${where} has no role: build it from a role's procedure`);
    if (def.type === "subscription") throw new Error(`${where} is a subscription; serve it over SSE`);
    if (def.inputs.length > 1) throw new Error(`${where} has several .input() schemas; use one`);
    const request = (def.inputs[0] as z.ZodType | undefined) ?? null;
    const response = def.output as z.ZodType | undefined;
    if (!(response instanceof z.ZodType)) throw new Error(`${where} declares no zod .output()`);
    if (request !== null && !(request instanceof z.ZodType)) throw new Error(`${where} input is not zod`);
    const key = `${openapi.method} ${openapi.path}`;
    if (seen.has(key)) throw new Error(`${where}: another procedure already serves ${key}`);
    seen.add(key);
    const pathParams = [...openapi.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
    const fields = request === null ? [] : inputFieldsOf(request);
    for (const param of pathParams) {
      if (!fields.includes(param))
        throw new Error(`${where}: path parameter {${param}} is not an input field`);
    }
    const rest = fields.filter((field) => !pathParams.includes(field));
    routes.push({
      ...openapi,
      procedurePath,
      tag: procedurePath.split(".")[0] as string,
      access: role,
      inputFrom: rest.length === 0 ? "none" : openapi.method === "POST" ? "body" : "query",
      pathParams,
      request,
      response,
      abortsOnDisconnect: def.type === "query",
    });
  }
  return routes;
}

/** Top-level property names of an input schema (as its JSON Schema lists them). */
function inputFieldsOf(schema: z.ZodType): string[] {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, unknown>;
    $ref?: string;
    $defs?: Record<string, { properties?: Record<string, unknown> }>;
  };
  // A named schema (`.meta({ id })`) converts to a `$ref` into its own `$defs`.
  const root = json.$ref?.startsWith("#/$defs/") ? json.$defs?.[json.$ref.slice("#/$defs/".length)] : json;
  return Object.keys(root?.properties ?? {});
}
