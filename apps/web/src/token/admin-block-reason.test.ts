import { describe, expect, it } from "vitest";
import { adminBlockReason } from "./admin-block-reason";

describe("adminBlockReason", () => {
  it("lets the admin token through and tells everyone else why not", () => {
    expect(adminBlockReason({ kind: "admin" }, "Draining a backend")).toBeNull();
    expect(adminBlockReason({ kind: "none" }, "Draining a backend")).toBe(
      "Draining a backend needs the admin token. Enter it in the token box at the top right.",
    );
    expect(adminBlockReason({ kind: "not-admin", reason: "it is the viewer token" }, "Removing")).toContain(
      "not it (it is the viewer token)",
    );
    expect(adminBlockReason({ kind: "checking" }, "x")).toBe("Checking the token…");
  });
});
