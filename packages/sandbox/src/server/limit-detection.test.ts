import { describe, expect, it } from "vitest";
import { limitHitOf } from "./limit-detection";

describe("limitHitOf", () => {
  it("names the process limit from bash's and Python's fork refusals", () => {
    expect(limitHitOf("bash: fork: retry: Resource temporarily unavailable\n", 254, false)).toEqual({
      limitHit: "processes",
    });
    const pythonFork =
      'Traceback (most recent call last):\n  File "<cell>", line 4, in <module>\nBlockingIOError: [Errno 11] Resource temporarily unavailable\n';
    expect(limitHitOf(pythonFork, null, false)).toEqual({ limitHit: "processes" });
  });

  it("does not take a handled EAGAIN mid-output for the process limit", () => {
    const handled = "BlockingIOError: [Errno 11] Resource temporarily unavailable\nretrying\ndone\n";
    expect(limitHitOf(handled, 0, false)).toEqual({});
  });

  it("names CPU, file size, memory and output limits", () => {
    expect(limitHitOf("", 128 + 24, false)).toEqual({ limitHit: "cpu" });
    expect(limitHitOf("File size limit exceeded\n", 1, false)).toEqual({ limitHit: "fileSize" });
    expect(limitHitOf("MemoryError\n", 1, false)).toEqual({ limitHit: "memory" });
    expect(limitHitOf("lots", 0, true)).toEqual({ limitHit: "output" });
    expect(limitHitOf("fine\n", 0, false)).toEqual({});
  });
});
