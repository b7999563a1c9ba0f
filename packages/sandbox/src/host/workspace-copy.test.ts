import { execFileSync } from "node:child_process";
import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { copyTree, SpecialEntryError } from "./workspace-copy";
import { cloneWorkspace } from "./workspace-template";

const made: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), "raas-copy-"));
  made.push(dir);
  mkdirSync(join(dir, "src"));
  mkdirSync(join(dir, "dst"));
  return { src: join(dir, "src"), dst: join(dir, "dst") };
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A tree with what a prepared workspace holds: nested dirs, modes, a symlink, a hard link pair. */
function fillTree(root: string): void {
  mkdirSync(join(root, "repo/.git/objects"), { recursive: true });
  writeFileSync(join(root, "repo/a.py"), "print(1)\n");
  writeFileSync(join(root, "repo/.git/objects/pack"), "immutable");
  chmodSync(join(root, "repo/.git/objects/pack"), 0o444);
  writeFileSync(join(root, "repo/run.sh"), "echo hi\n");
  chmodSync(join(root, "repo/run.sh"), 0o750);
  chmodSync(join(root, "repo/.git"), 0o700);
  symlinkSync("a.py", join(root, "repo/link.py"));
  linkSync(join(root, "repo/a.py"), join(root, "repo/same.py"));
  utimesSync(join(root, "repo/a.py"), 1_000_000, 1_234_567.5);
}

describe("copyTree", () => {
  it("keeps contents, modes, times, symlinks and the tree's own hard links, sharing no inode with the source", async () => {
    const { src, dst } = scratch();
    fillTree(src);
    await copyTree(src, dst);
    const at = (root: string, path: string) => lstatSync(join(root, path));
    for (const path of ["repo", "repo/.git", "repo/a.py", "repo/run.sh", "repo/.git/objects/pack"]) {
      expect((at(dst, path).mode & 0o7777).toString(8)).toBe((at(src, path).mode & 0o7777).toString(8));
      expect(at(dst, path).uid).toBe(at(src, path).uid);
      expect(at(dst, path).ino).not.toBe(at(src, path).ino);
    }
    expect(readFileSync(join(dst, "repo/run.sh"), "utf8")).toBe("echo hi\n");
    expect(at(dst, "repo/a.py").mtimeMs).toBe(at(src, "repo/a.py").mtimeMs);
    expect(readlinkSync(join(dst, "repo/link.py"))).toBe("a.py");
    expect(at(dst, "repo/same.py").ino).toBe(at(dst, "repo/a.py").ino);
    // A write in place in the copy reaches neither the source nor its other links there.
    writeFileSync(join(dst, "repo/run.sh"), "changed\n");
    expect(readFileSync(join(src, "repo/run.sh"), "utf8")).toBe("echo hi\n");
  });

  it("refuses a FIFO; cloneWorkspace then copies the tree with cp -a", async () => {
    const { src, dst } = scratch();
    fillTree(src);
    execFileSync("mkfifo", [join(src, "repo/pipe")]);
    await expect(copyTree(src, mkdtempSync(join(dst, "..", "other-")))).rejects.toBeInstanceOf(
      SpecialEntryError,
    );
    await cloneWorkspace(src, dst);
    expect(lstatSync(join(dst, "repo/pipe")).isFIFO()).toBe(true);
    expect(readFileSync(join(dst, "repo/a.py"), "utf8")).toBe("print(1)\n");
  });
});
