type Node = Record<string, unknown>;

const COMPONENT_PREFIX = "#/components/schemas/";
/** Keys that give a schema a shape; a schema with none of them accepts anything (`{}`). */
const SHAPE_KEYS = ["type", "$ref", "anyOf", "oneOf", "allOf", "const", "enum", "properties", "items", "not"];
/** Properties whose shape is the point of the document: never `{}`. */
const MUST_HAVE_SHAPE = new Set(["payload", "result", "arguments"]);
/** Fields only a Job has: an inline object holding all of them is the Job schema inlined. */
const JOB_FINGERPRINT = ["jobKey", "status", "stage", "timings", "attempts", "trainable"];

/**
 * Where an OpenAPI document falls short of what a client generator or a reader needs: operations
 * without a description, parameters or properties without one, a request body without an example,
 * a `{}` schema for a payload, result or tool-call arguments, the Job object inlined instead of
 * referenced. Each gap is one line naming where it is; an empty list means none.
 */
export function findDocumentGaps(doc: Node): string[] {
  const gaps: string[] = [];
  const components = ((doc.components as Node | undefined)?.schemas ?? {}) as Record<string, Node>;
  const described = (schema: Node | undefined): boolean => {
    if (!schema) return false;
    if (typeof schema.description === "string" && schema.description.trim().length > 0) return true;
    if (typeof schema.$ref === "string")
      return described(components[schema.$ref.slice(COMPONENT_PREFIX.length)]);
    for (const key of ["anyOf", "oneOf", "allOf"]) {
      const members = schema[key];
      if (Array.isArray(members) && members.some((member) => described(member as Node))) return true;
    }
    return false;
  };
  const walk = (schema: unknown, where: string, isComponentRoot: boolean) => {
    if (typeof schema !== "object" || schema === null) return;
    if (Array.isArray(schema)) {
      for (const [index, item] of schema.entries()) walk(item, `${where}[${index}]`, false);
      return;
    }
    const node = schema as Node;
    const properties = node.properties as Record<string, Node> | undefined;
    if (properties) {
      if (!isComponentRoot && JOB_FINGERPRINT.every((key) => key in properties)) {
        gaps.push(`${where}: the Job schema is inlined; reference #/components/schemas/Job`);
      }
      for (const [name, property] of Object.entries(properties)) {
        if (!described(property)) gaps.push(`${where}.${name}: property without description`);
        if (MUST_HAVE_SHAPE.has(name) && !SHAPE_KEYS.some((key) => key in property)) {
          gaps.push(`${where}.${name}: schema {} (no shape)`);
        }
      }
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === "properties" && properties) {
        for (const [name, property] of Object.entries(properties)) walk(property, `${where}.${name}`, false);
      } else if (key !== "examples" && key !== "example" && key !== "default" && key !== "const") {
        walk(value, `${where}/${key}`, false);
      }
    }
  };
  for (const [name, schema] of Object.entries(components)) {
    if (!described(schema)) gaps.push(`components.${name}: schema without description`);
    walk(schema, `components.${name}`, true);
  }
  for (const [path, methods] of Object.entries((doc.paths ?? {}) as Record<string, Record<string, Node>>)) {
    for (const [method, operation] of Object.entries(methods)) {
      const where = `${method.toUpperCase()} ${path}`;
      if (typeof operation.description !== "string" || operation.description.trim() === "") {
        gaps.push(`${where}: operation without description`);
      }
      for (const parameter of (operation.parameters ?? []) as Node[]) {
        if (typeof parameter.description !== "string" || parameter.description.trim() === "") {
          gaps.push(`${where}: parameter ${String(parameter.name)} without description`);
        }
        walk(parameter.schema, `${where} parameter ${String(parameter.name)}`, false);
      }
      const content = ((operation.requestBody as Node | undefined)?.content ?? {}) as Record<string, Node>;
      for (const [mediaType, media] of Object.entries(content)) {
        if (media.example === undefined && media.examples === undefined) {
          gaps.push(`${where}: request body (${mediaType}) without example`);
        }
        walk(media.schema, `${where} request body`, false);
      }
      for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Node>)) {
        for (const media of Object.values((response.content ?? {}) as Record<string, Node>)) {
          walk(media.schema, `${where} response ${status}`, false);
        }
      }
    }
  }
  return gaps;
}
