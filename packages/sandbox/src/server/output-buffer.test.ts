import { describe, expect, it } from "vitest";
import { OutputBuffer } from "./output-buffer";

describe("OutputBuffer", () => {
  it("returns everything when under the budget", () => {
    const buffer = new OutputBuffer(100);
    buffer.append("hello ");
    buffer.append("world");
    expect(buffer.text()).toBe("hello world");
    expect(buffer.isTruncated).toBe(false);
  });

  it("keeps head and tail and says how many bytes were cut", () => {
    const buffer = new OutputBuffer(20);
    for (let i = 0; i < 100; i += 1) buffer.append(`${String(i).padStart(3, "0")}\n`);
    const text = buffer.text();
    expect(buffer.isTruncated).toBe(true);
    expect(buffer.totalBytes).toBe(400);
    expect(text.startsWith("000\n001\n")).toBe(true);
    expect(text.endsWith("098\n099\n")).toBe(true);
    expect(text).toContain("380 of 400 bytes cut (limit 20 bytes)");
  });
});
