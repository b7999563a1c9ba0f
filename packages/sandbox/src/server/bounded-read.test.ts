import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readWorkspaceFile, UnreadableFileError } from "./bounded-read";
import { EditorTool } from "./editor-tool";
import { FileActions } from "./file-actions";
import { PathOutsideWorkspaceError } from "./workspace-path";

describe("bounded workspace reads", () => {
  let base: string;
  let workspace: string;

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), "raas-read-"));
    workspace = join(base, "ws");
    mkdirSync(workspace);
    writeFileSync(join(base, "outside.txt"), "host secret");
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it("reads a regular file whole", () => {
    writeFileSync(join(workspace, "a.txt"), "hello");
    expect(readWorkspaceFile(workspace, "a.txt").toString()).toBe("hello");
    expect(new FileActions(workspace).read("a.txt").toString()).toBe("hello");
  });

  it("refuses a FIFO at once instead of blocking the server", () => {
    execFileSync("mkfifo", [join(workspace, "pipe")]);
    expect(() => readWorkspaceFile(workspace, "pipe")).toThrow(/not a regular file/);
    expect(() => new FileActions(workspace).read("pipe")).toThrow(UnreadableFileError);
    const view = new EditorTool(workspace).run({ command: "view", path: "pipe" });
    expect(view).toMatchObject({ isError: true });
    expect(view.output).toMatch(/not a regular file/);
  });

  it("refuses a file above the cap with a message that says what to do", () => {
    const big = join(workspace, "big.bin");
    writeFileSync(big, "");
    truncateSync(big, 16 * 1024 ** 2 + 1);
    expect(() => readWorkspaceFile(workspace, "big.bin")).toThrow(
      /16777217 bytes, more than the 16777216-byte read limit/,
    );
    expect(() => readWorkspaceFile(workspace, "big.bin", 1_000)).toThrow(UnreadableFileError);
    const view = new EditorTool(workspace).run({ command: "view", path: "big.bin" });
    expect(view.output).toMatch(/read limit/);
  });

  it("refuses a symlink out of the workspace", () => {
    symlinkSync(join(base, "outside.txt"), join(workspace, "link"));
    expect(() => readWorkspaceFile(workspace, "link")).toThrow(PathOutsideWorkspaceError);
  });

  it("checks where the opened descriptor really points", () => {
    // A workspace reached through a symlinked directory still reads; the fd check uses real paths.
    symlinkSync(workspace, join(base, "ws-link"));
    writeFileSync(join(workspace, "b.txt"), "via link");
    expect(readWorkspaceFile(join(base, "ws-link"), "b.txt").toString()).toBe("via link");
  });
});
