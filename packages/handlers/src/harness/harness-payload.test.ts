import { readFileSync } from "node:fs";
import { defineHandler, type SandboxRuntime } from "@raas/engine";
import { failureOf } from "@raas/shared";
import { describe, expect, it } from "vitest";
import { createHarborHandler } from "../harbor/harbor-handler";
import { createMathHandler } from "../math/math-handler";
import { createSweHandlerFactory } from "../swe/swe-handler";
import { createHarnessHandler, type HarnessGateway } from "./harness-handler";

const INSTANCE = JSON.parse(
  readFileSync(new URL("../../data/swe/instances.jsonl", import.meta.url), "utf8").split("\n")[0] ?? "{}",
) as Record<string, unknown>;

const tool = (name: string) => ({ name, description: name, parameters: { type: "object" } });
const runtime = {
  name: "fake",
  toolSpecs: ["bash", "python", "editor"].map(tool),
} as unknown as SandboxRuntime;
const deps = { sandboxRuntime: runtime, inference: {} as never, chatFormat: {} as never };
const gateway = {} as HarnessGateway;
const math = defineHandler(createMathHandler(deps));
const swe = defineHandler(createSweHandlerFactory({ repoSource: {} as never })(deps));
const harbor = defineHandler(createHarborHandler(deps));
// A kind whose RUN is no agent's: a harness cannot play it.
const sleep = { ...math, kind: "sleep", runWithAgent: undefined };

const handler = createHarnessHandler({ gateway, targets: [math, harbor, swe, sleep] });
const erased = defineHandler(handler);
const MATH_TASK = { kind: "math", payload: { taskId: "m1", problem: "What is 6 * 7?", answer: "42" } };

/** The issues of a payload the schema refuses, as `path: message`. */
function issuesOf(payload: unknown): string[] {
  const parsed = handler.payloadSchema.safeParse(payload);
  expect(parsed.success).toBe(false);
  return (parsed.error?.issues ?? []).map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

describe("the harness payload", () => {
  it("takes a swe task in its first form, and refuses tool servers the harness would never offer", () => {
    expect(handler.payloadSchema.safeParse({ task: { instance: INSTANCE } }).success).toBe(true);
    const mcp = { servers: [{ name: "db", command: "python3" }] };
    const parsed = handler.payloadSchema.safeParse({ task: { instance: INSTANCE, mcp } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({
        path: ["task", "mcp"],
        message: expect.stringMatching(/a harness job runs its own agent: `mcp`/),
      }),
    ]);
  });

  it("takes `{ kind, payload }` of any agent kind, validated by that kind's own schema", () => {
    expect(handler.payloadSchema.safeParse({ task: MATH_TASK }).success).toBe(true);
    expect(
      handler.payloadSchema.safeParse({ task: { kind: "swe", payload: { instance: INSTANCE } } }).success,
    ).toBe(true);
    expect(issuesOf({ task: { kind: "math", payload: { taskId: "m1", problem: "2+2?" } } })).toEqual([
      expect.stringMatching(/^task\.payload\.answer: /),
    ]);
    expect(issuesOf({ task: { kind: "math", payload: { ...MATH_TASK.payload, extra: 1 } } })).toEqual([
      expect.stringMatching(/^task\.payload: .*extra/),
    ]);
    expect(issuesOf({ task: { kind: "math" } })).toEqual([expect.stringMatching(/^task\.payload: /)]);
    expect(issuesOf({ task: { ...MATH_TASK, command: ["x"] } })).toEqual([
      'task: unknown keys "command": a task is { kind, payload }',
    ]);
  });

  it("names the kinds a harness can play when given another, or none", () => {
    for (const kind of ["sleep", "harness", "nope"]) {
      expect(issuesOf({ task: { kind, payload: {} } })).toEqual([
        `task.kind: a harness plays the agent of these kinds only: math, harbor, swe (given "${kind}")`,
      ]);
    }
    const withoutSwe = createHarnessHandler({ gateway, targets: [math] });
    const parsed = withoutSwe.payloadSchema.safeParse({ task: { instance: INSTANCE } });
    expect(parsed.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["task.kind", "required: the task's kind, one of math"],
    ]);
  });

  it("refuses tool servers and a given modelPatch inside `payload` too", () => {
    const mcp = { servers: [{ name: "db", command: "python3" }] };
    expect(issuesOf({ task: { kind: "math", payload: { ...MATH_TASK.payload, mcp } } })).toEqual([
      expect.stringMatching(/^task\.payload\.mcp: a harness job runs its own agent/),
    ]);
    expect(issuesOf({ task: { kind: "swe", payload: { instance: INSTANCE, modelPatch: "" } } })).toEqual([
      expect.stringMatching(/^task\.payload\.modelPatch: a harness job runs its harness: give no modelPatch/),
    ]);
  });

  it("is a 400 VALIDATION_FAILED naming the full path when submitted", () => {
    let thrown: unknown;
    try {
      erased.parsePayload({ task: { kind: "math", payload: { taskId: "m1", problem: "2+2?" } } }, [
        "jobs",
        2,
      ]);
    } catch (error) {
      thrown = error;
    }
    const failure = failureOf(thrown);
    expect(failure?.kind === "request" && failure.code).toBe("VALIDATION_FAILED");
    expect(failure?.message).toMatch(
      /^invalid payload for handler "harness": jobs\[2\]\.payload\.task\.payload\.answer: .*; a harness payload accepts: task, command, recipe, files, timeoutMs, agent$/,
    );
    expect(() => erased.parsePayload({ task: { kind: "sleep", payload: {} } })).toThrow(
      /payload\.task\.kind: a harness plays the agent of these kinds only/,
    );
  });
});
