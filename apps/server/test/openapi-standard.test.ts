// The served /openapi.json checked against the OpenAPI standard itself — the specification's own
// JSON Schema (through @seriousme/openapi-schema-validator), every $ref resolved, every schema a
// valid JSON Schema 2020-12 — plus the rules a client generator relies on that a JSON Schema
// cannot state (unique operationIds, path templates and path parameters in step).
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAllHandlersServer } from "./support/all-handlers-server";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Every `$ref` in the document with where it sits. */
function collectRefs(node: Json, at: string, found: Array<{ at: string; ref: string }>) {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) collectRefs(item, `${at}/${i}`, found);
  } else if (node !== null && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") found.push({ at, ref: value });
      else collectRefs(value, `${at}/${key}`, found);
    }
  }
  return found;
}

/** The node a local `#/a/b~1c` pointer names, or undefined. */
function resolvePointer(doc: Json, ref: string): Json | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let node: Json | undefined = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !(key in node)) return undefined;
    node = (node as JsonObject)[key];
  }
  return node;
}

/** Every Schema Object of the document: components and those inline in operations. */
function collectSchemas(doc: JsonObject): Array<{ at: string; schema: Json }> {
  const schemas: Array<{ at: string; schema: Json }> = [];
  const components = (doc.components as JsonObject | undefined)?.schemas as JsonObject | undefined;
  for (const [name, schema] of Object.entries(components ?? {}))
    schemas.push({ at: `schemas/${name}`, schema });
  for (const [path, item] of Object.entries(doc.paths as JsonObject)) {
    for (const method of METHODS) {
      const op = (item as JsonObject)[method] as JsonObject | undefined;
      if (!op) continue;
      const where = `${method.toUpperCase()} ${path}`;
      for (const param of (op.parameters as JsonObject[] | undefined) ?? []) {
        if (param.schema)
          schemas.push({ at: `${where} parameter ${String(param.name)}`, schema: param.schema });
      }
      const bodies = [
        ["request", op.requestBody],
        ...Object.entries((op.responses as JsonObject | undefined) ?? {}),
      ] as Array<[string, Json]>;
      for (const [label, body] of bodies) {
        const content = (body as JsonObject | null)?.content as JsonObject | undefined;
        for (const [type, media] of Object.entries(content ?? {})) {
          const schema = (media as JsonObject).schema;
          if (schema !== undefined) schemas.push({ at: `${where} ${label} ${type}`, schema });
        }
      }
    }
  }
  return schemas;
}

describe("/openapi.json against the OpenAPI 3.1 standard", () => {
  let running: Awaited<ReturnType<typeof startAllHandlersServer>>;
  let doc: JsonObject;

  beforeAll(async () => {
    running = await startAllHandlersServer();
    doc = (await fetch(`${running.url}/openapi.json`).then((response) => response.json())) as JsonObject;
  });
  afterAll(async () => {
    await running?.close();
  });

  it("validates against the specification's schema with every $ref resolved", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(() => validator.resolveRefs()).not.toThrow();

    const refs = collectRefs(doc, "#", []);
    expect(refs.length).toBeGreaterThan(50);
    const unresolved = refs.filter(({ ref }) => resolvePointer(doc, ref) === undefined);
    expect(unresolved).toEqual([]);
  });

  it("fails a document with a dangling $ref or a misspelled field (the check has teeth)", async () => {
    const dangling = structuredClone(doc) as { components: { schemas: JsonObject } };
    dangling.components.schemas.Broken = { $ref: "#/components/schemas/DoesNotExist" };
    expect((await new Validator().validate(dangling)).valid).toBe(false);
    const misspelled = structuredClone(doc) as { paths: JsonObject };
    (misspelled.paths["/api/v1/jobs"] as JsonObject).post = { operationId: "x", response: {} };
    expect((await new Validator().validate(misspelled)).valid).toBe(false);
  });

  it("has only valid JSON Schema 2020-12 schemas", () => {
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const invalid = collectSchemas(doc)
      .filter(({ schema }) => !ajv.validateSchema(schema as object))
      .map(({ at }) => `${at}: ${ajv.errorsText(ajv.errors)}`);
    expect(invalid).toEqual([]);
  });

  it("names each operation once and declares exactly the path's template parameters", () => {
    const operationIds: string[] = [];
    const problems: string[] = [];
    for (const [path, item] of Object.entries(doc.paths as JsonObject)) {
      const template = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] as string).sort();
      for (const method of METHODS) {
        const op = (item as JsonObject)[method] as JsonObject | undefined;
        if (!op) continue;
        const where = `${method.toUpperCase()} ${path}`;
        if (typeof op.operationId !== "string") problems.push(`${where}: no operationId`);
        else operationIds.push(op.operationId);
        const params = ((op.parameters as JsonObject[] | undefined) ?? []).map((param) =>
          typeof param.$ref === "string" ? (resolvePointer(doc, param.$ref) as JsonObject) : param,
        );
        const inPath = params.filter((param) => param.in === "path");
        const names = inPath.map((param) => String(param.name)).sort();
        if (names.join() !== template.join())
          problems.push(`${where}: path parameters ${names} ≠ {${template}}`);
        for (const param of inPath)
          if (param.required !== true) problems.push(`${where}: ${param.name} not required`);
      }
    }
    expect(problems).toEqual([]);
    expect(operationIds.length).toBeGreaterThan(20);
    expect(operationIds.filter((id, i) => operationIds.indexOf(id) !== i)).toEqual([]);
  });
});
