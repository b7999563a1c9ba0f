import type { RestRoute } from "../rest/rest-route.types";
import { errorResponses } from "./error-responses";
import { componentRef, type JsonSchema, type SchemaComponents } from "./schema-components";

/**
 * One REST route as an OpenAPI operation: parameters and request body from its request schema,
 * its success response and every error response it can give. Registers the route's request and
 * response schemas as components (in that order).
 */
export function routeOperation(route: RestRoute, components: SchemaComponents): JsonSchema {
  const input = route.request ? components.resolve(components.convert(route.request, "input")) : {};
  const parameters = operationParameters(route, input);
  const operation: JsonSchema = {
    operationId: route.operationId,
    summary: route.summary,
    description: `${route.description}\n\nRole: ${route.access === "public" ? "none (no token needed)" : `${route.access} or higher`}.`,
    tags: [route.tag],
    ...(route.access === "public" ? { security: [] } : {}),
    "x-raas-role": route.access,
  };
  if (parameters.length > 0) operation.parameters = parameters;
  if (route.request && route.inputFrom === "body")
    operation.requestBody = requestBody(route, input, components);
  operation.responses = { ...successResponses(route, components), ...errorResponses(route) };
  return operation;
}

/** Path parameters, and the query's fields when the input comes from the query. */
function operationParameters(route: RestRoute, input: JsonSchema) {
  const inputProperties = (input.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((input.required ?? []) as string[]);
  const parameter = (name: string, where: "path" | "query") => {
    const { description, ...schema } = inputProperties[name] ?? { type: "string" };
    return { name, in: where, required: where === "path" || required.has(name), description, schema };
  };
  const parameters = route.pathParams.map((name) => parameter(name, "path"));
  if (route.inputFrom === "query") {
    for (const name of Object.keys(inputProperties)) {
      if (!route.pathParams.includes(name)) parameters.push(parameter(name, "query"));
    }
  }
  return parameters;
}

function requestBody(route: RestRoute, input: JsonSchema, components: SchemaComponents): JsonSchema {
  const name = `${pascal(route.operationId)}Request`;
  let schema: JsonSchema;
  if (route.pathParams.length === 0 && route.request) schema = components.add(name, route.request, "input");
  else {
    // Path parameters travel in the path; the body holds the other fields.
    const { pathParams } = route;
    const fields = Array.isArray(input.required) ? (input.required as string[]) : [];
    components.put(name, {
      ...input,
      properties: omit((input.properties ?? {}) as Record<string, JsonSchema>, pathParams),
      required: fields.filter((field) => !pathParams.includes(field)),
    });
    schema = componentRef(name);
  }
  return {
    required: true,
    description: String(input.description ?? "The request."),
    content: { "application/json": { schema, ...(route.example ? { example: route.example } : {}) } },
  };
}

/** 200 (or the route's status); a create-or-get route answers 200 for an existing one, 201 for a new one. */
function successResponses(route: RestRoute, components: SchemaComponents): Record<string, unknown> {
  const ok = {
    description: route.successStatus === 201 ? "Created" : "Success",
    content: {
      "application/json": {
        schema: components.add(`${pascal(route.operationId)}Response`, route.response, "output"),
      },
    },
  };
  if (route.successStatus !== "created") return { [String(route.successStatus ?? 200)]: ok };
  return {
    "200": { ...ok, description: "Existed already: the stored one is returned" },
    "201": { ...ok, description: "Created" },
  };
}

function pascal(operationId: string): string {
  return operationId.charAt(0).toUpperCase() + operationId.slice(1);
}

function omit(properties: Record<string, JsonSchema>, keys: readonly string[]): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(properties).filter(([key]) => !keys.includes(key)));
}
