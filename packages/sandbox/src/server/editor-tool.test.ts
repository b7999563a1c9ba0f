import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EditorTool } from "./editor-tool";

describe("EditorTool", () => {
  let base: string;
  let root: string;
  let editor: EditorTool;

  beforeEach(() => {
    base = mkdtempSync(join(tmpdir(), "raas-editor-"));
    root = join(base, "ws");
    mkdirSync(root);
    editor = new EditorTool(root);
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  it("creates a file, refuses to overwrite it, and views it with line numbers and ranges", () => {
    expect(editor.run({ command: "create", path: "src/a.py", file_text: "one\ntwo\nthree" }).isError).toBe(
      false,
    );
    expect(readFileSync(join(root, "src/a.py"), "utf8")).toBe("one\ntwo\nthree");
    const again = editor.run({ command: "create", path: "src/a.py", file_text: "x" });
    expect(again.isError).toBe(true);
    expect(again.output).toMatch(/already exists/);
    expect(editor.run({ command: "view", path: "src/a.py" }).output).toContain(
      "     1\tone\n     2\ttwo\n     3\tthree",
    );
    const ranged = editor.run({ command: "view", path: "src/a.py", view_range: [2, -1] }).output;
    expect(ranged).toContain("     2\ttwo");
    expect(ranged).not.toContain("\tone");
    expect(editor.run({ command: "view", path: "src/a.py", view_range: [5, 6] }).isError).toBe(true);
  });

  it("lists a directory two levels deep without hidden entries", () => {
    mkdirSync(join(root, "pkg/sub/deep"), { recursive: true });
    writeFileSync(join(root, "pkg/sub/deep/x.txt"), "x");
    writeFileSync(join(root, ".secret"), "x");
    const output = editor.run({ command: "view", path: "." }).output;
    expect(output).toContain(`${root}/pkg/`);
    expect(output).toContain(`${root}/pkg/sub/`);
    expect(output).not.toContain("deep/x.txt");
    expect(output).not.toContain(".secret");
  });

  it("str_replace needs exactly one verbatim match", () => {
    writeFileSync(join(root, "f.txt"), "a = 1\nb = 1\nc = 2\n");
    const none = editor.run({ command: "str_replace", path: "f.txt", old_str: "d = 1", new_str: "x" });
    expect(none).toEqual({ isError: true, output: expect.stringMatching(/did not appear verbatim/) });
    const many = editor.run({ command: "str_replace", path: "f.txt", old_str: " = 1", new_str: " = 9" });
    expect(many.isError).toBe(true);
    expect(many.output).toMatch(/appears 2 times \(lines 1, 2\)/);
    expect(readFileSync(join(root, "f.txt"), "utf8")).toBe("a = 1\nb = 1\nc = 2\n");
    const one = editor.run({ command: "str_replace", path: "f.txt", old_str: "c = 2", new_str: "c = 3" });
    expect(one.isError).toBe(false);
    expect(one.output).toContain("     3\tc = 3");
    expect(readFileSync(join(root, "f.txt"), "utf8")).toBe("a = 1\nb = 1\nc = 3\n");
  });

  it("inserts after a line and undoes edits in reverse order, including a create", () => {
    editor.run({ command: "create", path: "g.txt", file_text: "l1\nl2" });
    expect(editor.run({ command: "insert", path: "g.txt", insert_line: 1, new_str: "new" }).isError).toBe(
      false,
    );
    expect(readFileSync(join(root, "g.txt"), "utf8")).toBe("l1\nnew\nl2");
    expect(editor.run({ command: "insert", path: "g.txt", insert_line: 0, new_str: "top" }).isError).toBe(
      false,
    );
    expect(readFileSync(join(root, "g.txt"), "utf8")).toBe("top\nl1\nnew\nl2");
    expect(editor.run({ command: "insert", path: "g.txt", insert_line: 99, new_str: "x" }).isError).toBe(
      true,
    );
    editor.run({ command: "undo_edit", path: "g.txt" });
    expect(readFileSync(join(root, "g.txt"), "utf8")).toBe("l1\nnew\nl2");
    editor.run({ command: "undo_edit", path: "g.txt" });
    expect(readFileSync(join(root, "g.txt"), "utf8")).toBe("l1\nl2");
    editor.run({ command: "undo_edit", path: "g.txt" });
    expect(existsSync(join(root, "g.txt"))).toBe(false);
    expect(editor.run({ command: "undo_edit", path: "g.txt" }).output).toMatch(/No edit to undo/);
  });

  it("confines paths to the workspace, through ../ and through symlinks", () => {
    writeFileSync(join(base, "outside.txt"), "secret");
    symlinkSync(base, join(root, "escape"));
    for (const path of ["../outside.txt", join(base, "outside.txt"), "escape/outside.txt", "/etc/passwd"]) {
      const result = editor.run({ command: "view", path });
      expect(result.isError, path).toBe(true);
      expect(result.output).toMatch(/outside the workspace|leaves the workspace/);
    }
    expect(editor.run({ command: "create", path: "escape/new.txt", file_text: "x" }).isError).toBe(true);
    expect(existsSync(join(base, "new.txt"))).toBe(false);
  });

  it("explains bad commands and missing parameters", () => {
    expect(editor.run({ command: "delete", path: "x" }).output).toMatch(/unknown command `delete`/);
    expect(editor.run({ command: "create", path: "x" }).output).toMatch(/`file_text`/);
    expect(editor.run({ path: "x" }).output).toMatch(/`command`/);
  });
});
