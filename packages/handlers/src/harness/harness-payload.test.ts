import { readFileSync } from "node:fs";
import type { SandboxRuntime } from "@raas/engine";
import { describe, expect, it } from "vitest";
import { createHarnessHandlerFactory, type HarnessGateway } from "./harness-handler";

const INSTANCE = JSON.parse(
  readFileSync(new URL("../../data/swe/instances.jsonl", import.meta.url), "utf8").split("\n")[0] ?? "{}",
) as Record<string, unknown>;

const tool = (name: string) => ({ name, description: name, parameters: { type: "object" } });
const runtime = {
  name: "fake",
  toolSpecs: ["bash", "python", "editor"].map(tool),
} as unknown as SandboxRuntime;
const handler = createHarnessHandlerFactory({
  repoSource: {} as never,
  gateway: {} as HarnessGateway,
})({ sandboxRuntime: runtime, inference: {} as never, chatFormat: {} as never });

describe("the harness payload", () => {
  it("takes a swe task, and refuses tool servers the harness would never offer", () => {
    expect(handler.payloadSchema.safeParse({ task: { instance: INSTANCE } }).success).toBe(true);
    const mcp = { servers: [{ name: "db", command: "python3" }] };
    const parsed = handler.payloadSchema.safeParse({ task: { instance: INSTANCE, mcp } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({
        path: ["task", "mcp"],
        message: expect.stringMatching(/a harness job runs its own agent: `task.mcp`/),
      }),
    ]);
  });
});
