import { failureOf } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { findToolChoiceViolation, readToolChoice } from "./tool-choice";

const tool = (name: string) => ({
  type: "function" as const,
  function: { name, description: "", parameters: { type: "object" } },
});

describe("tool_choice", () => {
  it("enforces nothing for auto, none or no choice", () => {
    expect(readToolChoice({ tools: [tool("bash")] })).toBeNull();
    expect(readToolChoice({ tool_choice: "auto", tools: [tool("bash")] })).toBeNull();
    expect(readToolChoice({ tool_choice: "none" })).toBeNull();
    expect(findToolChoiceViolation(null, [])).toBeNull();
  });

  it("refuses required or a named tool the request does not offer (400)", () => {
    expect(() => readToolChoice({ tool_choice: "required" })).toThrow(/at least one tool/);
    const named = { type: "function" as const, function: { name: "edit" } };
    let thrown: unknown;
    try {
      readToolChoice({ tool_choice: named, tools: [tool("bash")] });
    } catch (error) {
      thrown = error;
    }
    expect(failureOf(thrown)).toMatchObject({ kind: "request", code: "VALIDATION_FAILED" });
    expect(failureOf(thrown)?.message).toMatch(/"edit", which is not among the request's tools \(bash\)/);
    expect(
      readToolChoice({
        tool_choice: { type: "function", function: { name: "bash" } },
        tools: [tool("bash")],
      }),
    ).toEqual({
      kind: "named",
      name: "bash",
    });
  });

  it("names an answer without the required call, or with another tool, as a violation", () => {
    expect(findToolChoiceViolation({ kind: "any" }, ["bash"])).toBeNull();
    expect(findToolChoiceViolation({ kind: "any" }, [])).toMatchObject({ required: "any", calledTools: [] });
    expect(findToolChoiceViolation({ kind: "named", name: "bash" }, ["bash", "bash"])).toBeNull();
    expect(findToolChoiceViolation({ kind: "named", name: "bash" }, ["bash", "edit"])).toMatchObject({
      required: "bash",
      calledTools: ["bash", "edit"],
      message: "tool_choice named bash but the answer calls bash, edit",
    });
    expect(findToolChoiceViolation({ kind: "named", name: "bash" }, [])?.message).toMatch(/calls no tool/);
  });
});
