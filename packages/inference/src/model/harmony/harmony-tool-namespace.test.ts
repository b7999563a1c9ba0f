import { describe, expect, it } from "vitest";
import { renderHarmonyToolsSection } from "./harmony-tool-namespace";

describe("harmony tool namespace", () => {
  it("writes the functions of the harmony spec's example as it does", () => {
    const section = renderHarmonyToolsSection([
      { name: "get_location", description: "Gets the location of the user.", parameters: { type: "object" } },
      {
        name: "get_current_weather",
        description: "Gets the current weather in the provided location.",
        parameters: {
          type: "object",
          properties: {
            location: { type: "string", description: "The city and state, e.g. San Francisco, CA" },
            format: { type: "string", enum: ["celsius", "fahrenheit"], default: "celsius" },
          },
          required: ["location"],
        },
      },
      {
        name: "get_multiple_weathers",
        description: "Gets the current weather in the provided list of locations.",
        parameters: {
          type: "object",
          properties: {
            locations: {
              type: "array",
              items: { type: "string" },
              description: 'List of city and state, e.g. ["San Francisco, CA", "New York, NY"]',
            },
            format: { type: "string", enum: ["celsius", "fahrenheit"], default: "celsius" },
          },
          required: ["locations"],
        },
      },
    ]);
    expect(section).toBe(
      "# Tools\n\n## functions\n\nnamespace functions {\n\n" +
        "// Gets the location of the user.\ntype get_location = () => any;\n\n" +
        "// Gets the current weather in the provided location.\ntype get_current_weather = (_: {\n" +
        "// The city and state, e.g. San Francisco, CA\nlocation: string,\n" +
        'format?: "celsius" | "fahrenheit", // default: celsius\n}) => any;\n\n' +
        "// Gets the current weather in the provided list of locations.\ntype get_multiple_weathers = (_: {\n" +
        '// List of city and state, e.g. ["San Francisco, CA", "New York, NY"]\nlocations: string[],\n' +
        'format?: "celsius" | "fahrenheit", // default: celsius\n}) => any;\n\n' +
        "} // namespace functions",
    );
  });

  it("writes nested objects, unions, nullable and numeric types, and untyped fields", () => {
    const section = renderHarmonyToolsSection([
      {
        name: "edit",
        description: "Edits a file.\nSecond line.",
        parameters: {
          type: "object",
          properties: {
            range: {
              type: "object",
              description: "Lines to replace",
              properties: { start: { type: "integer" }, end: { type: ["number", "null"] } },
              required: ["start"],
            },
            mode: { anyOf: [{ type: "string" }, { type: "boolean" }] },
            tags: { type: "array", items: { enum: ["a", "b"] } },
            retries: { type: "integer", default: 3 },
            extra: {},
          },
        },
      },
    ]);
    expect(section).toContain(
      "// Edits a file.\n// Second line.\ntype edit = (_: {\n" +
        "// Lines to replace\nrange?: {\n  start: number,\n  end?: number | null,\n},\n" +
        "mode?: string | boolean,\n" +
        'tags?: ("a" | "b")[],\n' +
        "retries?: number, // default: 3\n" +
        "extra?: any,\n}) => any;\n\n",
    );
  });
});
