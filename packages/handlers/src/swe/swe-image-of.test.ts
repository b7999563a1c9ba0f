import { readFileSync } from "node:fs";
import type { JobRecord } from "@raas/engine";
import { describe, expect, it } from "vitest";
import { createSweHandlerFactory } from "./swe-handler";

const INSTANCE = JSON.parse(
  readFileSync(new URL("../../data/swe/instances.jsonl", import.meta.url), "utf8").split("\n")[0] ?? "{}",
) as Record<string, unknown>;

const tool = (name: string) => ({ name, description: name, parameters: { type: "object" } });
// The handler checks at construction that the runtime serves its tools; nothing here runs one.
const runtime = { name: "fake", toolSpecs: ["bash", "python", "editor"].map(tool) } as never;
const deps = { sandboxRuntime: runtime, inference: {} as never, chatFormat: {} as never };
const job = { metadata: null } as JobRecord;

function handlerWith(config: { image?: string; imagePattern?: string }) {
  return createSweHandlerFactory({ repoSource: {} as never, ...config })(deps);
}

describe("swe handler imageOf (the image its INIT item carries)", () => {
  it("names the server's image, and the task's own image before it", () => {
    const handler = handlerWith({ image: "/images/default.sif" });
    const payload = handler.payloadSchema.parse({ instance: INSTANCE });
    expect(handler.imageOf?.(payload, job)).toBe("/images/default.sif");
    const own = handler.payloadSchema.parse({ instance: INSTANCE, image: "/images/own.sif" });
    expect(handler.imageOf?.(own, job)).toBe("/images/own.sif");
  });

  it("names none without an image, and throws when the pattern's image is not prepared", () => {
    const payload = handlerWith({}).payloadSchema.parse({ instance: INSTANCE });
    expect(handlerWith({}).imageOf?.(payload, job)).toBeUndefined();
    expect(() => handlerWith({ imagePattern: "/nowhere/{instance_id}.sif" }).imageOf?.(payload, job)).toThrow(
      /no environment image/,
    );
  });
});
