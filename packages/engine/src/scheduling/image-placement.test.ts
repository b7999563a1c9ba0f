import { describe, expect, it } from "vitest";
import { isPlacedWell } from "./image-placement";

const held = new Set(["img-a"]);

describe("image placement", () => {
  it("places an item well when it needs no image, its image is held, or it waited long enough", () => {
    expect(isPlacedWell({ enqueuedAtMs: 1_000 }, held, 1_000, 3_000)).toBe(true);
    expect(isPlacedWell({ image: null, enqueuedAtMs: 1_000 }, held, 1_000, 3_000)).toBe(true);
    expect(isPlacedWell({ image: "img-a", enqueuedAtMs: 1_000 }, held, 1_000, 3_000)).toBe(true);
    expect(isPlacedWell({ image: "img-b", enqueuedAtMs: 1_000 }, held, 3_999, 3_000)).toBe(false);
    expect(isPlacedWell({ image: "img-b", enqueuedAtMs: 1_000 }, held, 4_000, 3_000)).toBe(true);
  });
});
