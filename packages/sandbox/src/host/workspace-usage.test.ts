import { chmodSync, linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { measureWorkspace } from "./workspace-usage";

describe("measureWorkspace", () => {
  const root = mkdtempSync(join(tmpdir(), "raas-wsu-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("counts allocated bytes once per inode, without following links, and stops at the entry bound", async () => {
    mkdirSync(join(root, "a/b"), { recursive: true });
    writeFileSync(join(root, "a/b/one"), Buffer.alloc(1024 * 1024, 1));
    linkSync(join(root, "a/b/one"), join(root, "hard"));
    symlinkSync("/usr", join(root, "usr-link"));
    const full = await measureWorkspace(root, 1_000);
    expect(full.isComplete).toBe(true);
    expect(full.entries).toBe(5);
    expect(full.bytes).toBeGreaterThanOrEqual(1024 * 1024);
    expect(full.bytes).toBeLessThan(2 * 1024 * 1024);
    expect((await measureWorkspace(root, 2)).isComplete).toBe(false);
  });

  it("counts what is inside a directory its owner made unreadable", async () => {
    mkdirSync(join(root, "hidden"));
    writeFileSync(join(root, "hidden/big"), Buffer.alloc(2 * 1024 * 1024, 1));
    chmodSync(join(root, "hidden"), 0o000);
    expect((await measureWorkspace(root, 1_000)).bytes).toBeGreaterThanOrEqual(3 * 1024 * 1024);
  });
});
