import type { z } from "zod";
import { componentRef, type JsonSchema, type SchemaComponents } from "./schema-components";

/** What the document needs of each registered handler (the engine's `AnyTaskHandler` has it). */
export interface OpenApiHandlerSchemas {
  readonly kind: string;
  readonly description?: string;
  /** The payload a job of this kind carries. */
  readonly payloadSchema: z.ZodType;
  /** The shape of the job's `result` once EVAL ran. */
  readonly resultSchema?: z.ZodType;
}

/** `swe` → `Swe`, `nemo-math` → `NemoMath`: the component-name stem of a handler kind. */
function pascalKind(kind: string): string {
  return kind
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part.length > 0)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

/**
 * Per-kind payload and result components (`MathPayload`, `MathResult`, …), and the submit request
 * and Job turned into unions discriminated by `kind` (`SubmitMathJobRequest`, `MathJob`, …), so a
 * generated client knows each kind's payload and result. Without handlers both stay generic.
 */
export function addHandlerKindUnions(
  components: SchemaComponents,
  handlers: readonly OpenApiHandlerSchemas[],
): void {
  if (handlers.length === 0) return;
  for (const handler of handlers) {
    const stem = pascalKind(handler.kind);
    const payload = components.convert(handler.payloadSchema, "input");
    components.put(`${stem}Payload`, {
      ...payload,
      description:
        payload.description ?? `Payload of a \`${handler.kind}\` job. ${handler.description ?? ""}`.trim(),
    });
    const result = handler.resultSchema
      ? components.convert(handler.resultSchema, "output")
      : { type: "object", additionalProperties: true };
    components.put(`${stem}Result`, {
      ...result,
      description: result.description ?? `Evaluation result of a \`${handler.kind}\` job.`,
    });
  }
  toUnion(
    components,
    "SubmitJobRequest",
    handlers,
    (stem) => `Submit${stem}JobRequest`,
    (stem) => ({
      payload: componentRef(`${stem}Payload`),
    }),
  );
  toUnion(
    components,
    "Job",
    handlers,
    (stem) => `${stem}Job`,
    (stem) => ({
      payload: componentRef(`${stem}Payload`),
      result: { anyOf: [componentRef(`${stem}Result`), { type: "null" }] },
    }),
  );
}

/** Replaces component `name` by a `oneOf` of per-kind copies whose `kind` is a constant. */
function toUnion(
  components: SchemaComponents,
  name: string,
  handlers: readonly OpenApiHandlerSchemas[],
  variantName: (stem: string) => string,
  typedProperties: (stem: string) => Record<string, JsonSchema>,
): void {
  const base = components.schemas[name];
  const properties = base?.properties as Record<string, JsonSchema> | undefined;
  if (!base || !properties) return;
  const mapping: Record<string, string> = {};
  for (const handler of handlers) {
    const stem = pascalKind(handler.kind);
    const variant = variantName(stem);
    const typed = Object.entries(typedProperties(stem)).map(([key, schema]) => [
      key,
      { ...schema, description: properties[key]?.description },
    ]);
    components.put(variant, {
      ...base,
      description: `${String(base.description ?? name)} Kind \`${handler.kind}\`${handler.description ? `: ${handler.description}` : "."}`,
      properties: {
        ...properties,
        kind: { type: "string", const: handler.kind, description: properties.kind?.description },
        ...Object.fromEntries(typed),
      },
    });
    mapping[handler.kind] = componentRef(variant).$ref as string;
  }
  components.schemas[name] = {
    description: base.description,
    oneOf: Object.values(mapping).map(($ref) => ({ $ref })),
    discriminator: { propertyName: "kind", mapping },
  };
}
