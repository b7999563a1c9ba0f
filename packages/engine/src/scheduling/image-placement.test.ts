import { describe, expect, it } from "vitest";
import { choosePlaced, isPlacedWell } from "./image-placement";

const held = new Set(["img-a"]);

describe("image placement", () => {
  it("places an item well when it needs no image, its image is held, or it waited long enough", () => {
    expect(isPlacedWell({ enqueuedAtMs: 1_000 }, held, 1_000, 3_000)).toBe(true);
    expect(isPlacedWell({ image: null, enqueuedAtMs: 1_000 }, held, 1_000, 3_000)).toBe(true);
    expect(isPlacedWell({ image: "img-a", enqueuedAtMs: 1_000 }, held, 1_000, 3_000)).toBe(true);
    expect(isPlacedWell({ image: "img-b", enqueuedAtMs: 1_000 }, held, 3_999, 3_000)).toBe(false);
    expect(isPlacedWell({ image: "img-b", enqueuedAtMs: 1_000 }, held, 4_000, 3_000)).toBe(true);
  });

  it("chooses the best-ranked item placed well, else the best-ranked item", () => {
    const b = { id: "b", image: "img-b", enqueuedAtMs: 0 };
    const a = { id: "a", image: "img-a", enqueuedAtMs: 0 };
    const c = { id: "c", image: "img-c", enqueuedAtMs: 0 };
    expect(choosePlaced([b, a, c], held, 10, 3_000)?.id).toBe("a");
    expect(choosePlaced([b, c], held, 10, 3_000)?.id).toBe("b");
    // b waited past the bound: it goes first to whoever asks.
    expect(choosePlaced([b, a], held, 3_000, 3_000)?.id).toBe("b");
    expect(choosePlaced([], held, 0, 3_000)).toBeUndefined();
  });
});
