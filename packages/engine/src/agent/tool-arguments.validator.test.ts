import { describe, expect, it } from "vitest";
import { validateToolArguments } from "./tool-arguments.validator";

const schema = {
  type: "object",
  properties: {
    command: { type: "string", enum: ["view", "create"] },
    path: { type: "string" },
    insert_line: { type: "integer" },
  },
  required: ["command", "path"],
  additionalProperties: false,
};

describe("validateToolArguments", () => {
  it("accepts arguments that fit", () => {
    expect(validateToolArguments("editor", schema, { command: "view", path: "a.py" })).toBeNull();
    expect(
      validateToolArguments("editor", schema, { command: "create", path: "a", insert_line: 3 }),
    ).toBeNull();
  });

  it("names missing, unknown, mistyped and out-of-enum arguments", () => {
    const message = validateToolArguments("editor", schema, { command: "delete", insert_line: 1.5, x: 1 });
    expect(message).toContain('missing required argument "path"');
    expect(message).toContain('"command" must be one of "view", "create"');
    expect(message).toContain('"insert_line" must be an integer');
    expect(message).toContain('unknown argument "x"');
  });
});
