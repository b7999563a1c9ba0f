import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

const DEFS_PREFIX = "#/$defs/";
const COMPONENTS_PREFIX = "#/components/schemas/";

/** A `$ref` to a component schema. */
export function componentRef(name: string): JsonSchema {
  return { $ref: `${COMPONENTS_PREFIX}${name}` };
}

/**
 * The `components.schemas` of a document, filled from zod schemas. Every schema with a
 * `.meta({ id })` (Job, Turn, Backend, …) becomes one component referenced by `$ref` wherever it
 * occurs, never inlined; descriptions set with `.describe()`/`.meta()` where a schema is defined
 * flow in unchanged. When the input form of a named schema differs from its output form (defaults
 * make fields optional), the input form is named `<id>Input`.
 */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};

  /**
   * Converts `schema` and stores it as component `name`; returns a `$ref` to it. A schema that is
   * itself a named component (e.g. `ZJob`) is referenced as it is, without a second name.
   */
  add(name: string, schema: z.ZodType, io: "input" | "output"): JsonSchema {
    const json = this.convert(schema, io);
    if (typeof json.$ref === "string" && Object.keys(json).length === 1) return json;
    this.put(name, json);
    return componentRef(name);
  }

  /** Stores a ready JSON schema as component `name` (which must be new or identical). */
  put(name: string, json: JsonSchema): void {
    const existing = this.schemas[name];
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(json)) {
      throw new Error(`two different schemas are both named "${name}" in the OpenAPI document`);
    }
    this.schemas[name] = json;
  }

  /** The schema itself when `json` is only a `$ref` to one of the components. */
  resolve(json: JsonSchema): JsonSchema {
    const ref = json.$ref;
    if (typeof ref !== "string" || !ref.startsWith(COMPONENTS_PREFIX)) return json;
    return this.schemas[ref.slice(COMPONENTS_PREFIX.length)] ?? json;
  }

  /** The JSON schema of `schema`, with its named sub-schemas moved into the components. */
  convert(schema: z.ZodType, io: "input" | "output"): JsonSchema {
    const json = z.toJSONSchema(schema, {
      io,
      unrepresentable: "any",
      target: "draft-2020-12",
    }) as JsonSchema;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    const names = new Map<string, string>();
    for (const [id, def] of Object.entries(defs)) names.set(id, this.#nameFor(id, def, io, defs));
    const rewrite = (node: unknown): unknown => rewriteRefs(node, names);
    for (const [id, def] of Object.entries(defs))
      this.schemas[names.get(id) as string] = rewrite(def) as JsonSchema;
    return rewrite(json) as JsonSchema;
  }

  #nameFor(id: string, def: JsonSchema, io: "input" | "output", defs: Record<string, JsonSchema>): string {
    const candidates = io === "input" ? [id, `${id}Input`] : [id];
    const probe = (name: string) =>
      rewriteRefs(def, new Map(Object.keys(defs).map((d) => [d, d === id ? name : d])));
    for (const name of candidates) {
      const existing = this.schemas[name];
      if (existing === undefined || JSON.stringify(existing) === JSON.stringify(probe(name))) return name;
    }
    throw new Error(
      `the ${io} form of schema "${id}" differs from its other form(s) in the OpenAPI document`,
    );
  }
}

function rewriteRefs(node: unknown, names: Map<string, string>): unknown {
  if (Array.isArray(node)) return node.map((item) => rewriteRefs(item, names));
  if (typeof node !== "object" || node === null) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$ref" && typeof value === "string" && value.startsWith(DEFS_PREFIX)) {
      const id = value.slice(DEFS_PREFIX.length);
      out[key] = `${COMPONENTS_PREFIX}${names.get(id) ?? id}`;
    } else out[key] = rewriteRefs(value, names);
  }
  return out;
}
