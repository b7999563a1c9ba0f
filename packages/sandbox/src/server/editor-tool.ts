import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { readWorkspaceFile, UnreadableFileError } from "./bounded-read";
import { resolveInWorkspace } from "./workspace-path";

/** Outcome of one editor command: text for the agent and whether it was the agent's mistake. */
export interface EditorResult {
  output: string;
  isError: boolean;
}

const SNIPPET_CONTEXT_LINES = 4;
const MAX_VIEW_BYTES = 64_000;

function numbered(lines: string[], firstLine: number): string {
  return lines.map((line, index) => `${String(firstLine + index).padStart(6)}\t${line}`).join("\n");
}

function fail(message: string): EditorResult {
  return { output: message, isError: true };
}

function requireString(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  if (typeof value !== "string") throw new EditorArgumentError(`parameter \`${key}\` (string) is required`);
  return value;
}

class EditorArgumentError extends Error {}

/**
 * The file editor tool: view / create / str_replace / insert / undo_edit. Every path is
 * confined to the workspace; each edit pushes the previous content on a per-file history,
 * so `undo_edit` can walk back any number of edits (undoing a `create` deletes the file).
 */
export class EditorTool {
  readonly #history = new Map<string, Array<string | null>>();

  constructor(readonly workspaceRoot: string) {}

  run(args: Record<string, unknown>): EditorResult {
    try {
      const command = requireString(args, "command");
      const path = resolveInWorkspace(this.workspaceRoot, requireString(args, "path"));
      switch (command) {
        case "view":
          return this.#view(path, args.view_range);
        case "create":
          return this.#create(path, requireString(args, "file_text"));
        case "str_replace":
          return this.#strReplace(
            path,
            requireString(args, "old_str"),
            typeof args.new_str === "string" ? args.new_str : "",
          );
        case "insert": {
          const line = args.insert_line;
          if (typeof line !== "number" || !Number.isInteger(line))
            throw new EditorArgumentError("parameter `insert_line` (integer) is required");
          return this.#insert(path, line, requireString(args, "new_str"));
        }
        case "undo_edit":
          return this.#undo(path);
        default:
          return fail(
            `unknown command \`${command}\`; use one of view, create, str_replace, insert, undo_edit`,
          );
      }
    } catch (error) {
      return fail(error instanceof Error ? error.message : String(error));
    }
  }

  #display(path: string): string {
    return join(this.workspaceRoot, relative(resolveInWorkspace(this.workspaceRoot, "."), path));
  }

  #readText(path: string): string {
    if (!existsSync(path)) throw new EditorArgumentError(`${this.#display(path)} does not exist`);
    if (statSync(path).isDirectory()) throw new EditorArgumentError(`${this.#display(path)} is a directory`);
    try {
      return readWorkspaceFile(this.workspaceRoot, path).toString("utf8");
    } catch (error) {
      if (error instanceof UnreadableFileError) throw new EditorArgumentError(error.message);
      throw error;
    }
  }

  #remember(path: string, previous: string | null): void {
    const stack = this.#history.get(path) ?? [];
    stack.push(previous);
    this.#history.set(path, stack);
  }

  #snippet(content: string, aroundLine: number, lineCount: number): string {
    const lines = content.split("\n");
    const first = Math.max(1, aroundLine - SNIPPET_CONTEXT_LINES);
    const last = Math.min(lines.length, aroundLine + lineCount + SNIPPET_CONTEXT_LINES);
    return numbered(lines.slice(first - 1, last), first);
  }

  #view(path: string, range: unknown): EditorResult {
    if (!existsSync(path)) return fail(`${this.#display(path)} does not exist`);
    if (statSync(path).isDirectory()) {
      if (range !== undefined) return fail("`view_range` is not allowed when viewing a directory");
      const entries: string[] = [];
      const walk = (dir: string, depth: number) => {
        for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
          a.name.localeCompare(b.name),
        )) {
          if (entry.name.startsWith(".")) continue;
          const full = join(dir, entry.name);
          entries.push(`${this.#display(full)}${entry.isDirectory() ? "/" : ""}`);
          if (entry.isDirectory() && depth < 2) walk(full, depth + 1);
        }
      };
      walk(path, 1);
      return {
        output: `Files and directories up to 2 levels deep in ${this.#display(path)}, hidden items excluded:\n${entries.join("\n")}`,
        isError: false,
      };
    }
    const lines = this.#readText(path).split("\n");
    let first = 1;
    let last = lines.length;
    if (range !== undefined) {
      if (!Array.isArray(range) || range.length !== 2 || !range.every((n) => Number.isInteger(n))) {
        return fail("`view_range` must be two integers [start, end]; end -1 means the end of the file");
      }
      const [start, end] = range as [number, number];
      if (start < 1 || start > lines.length)
        return fail(`view_range start ${start} is outside the file's lines 1–${lines.length}`);
      if (end !== -1 && (end < start || end > lines.length))
        return fail(`view_range end ${end} must be between ${start} and ${lines.length}, or -1`);
      first = start;
      last = end === -1 ? lines.length : end;
    }
    let text = numbered(lines.slice(first - 1, last), first);
    if (text.length > MAX_VIEW_BYTES) {
      text = `${text.slice(0, MAX_VIEW_BYTES)}\n[... file view truncated; use view_range to see more ...]`;
    }
    return { output: `Here is ${this.#display(path)} (lines ${first}–${last}):\n${text}`, isError: false };
  }

  #create(path: string, text: string): EditorResult {
    if (existsSync(path))
      return fail(`${this.#display(path)} already exists; use str_replace or insert to change it`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    this.#remember(path, null);
    return { output: `Created ${this.#display(path)} (${text.split("\n").length} lines)`, isError: false };
  }

  #strReplace(path: string, oldStr: string, newStr: string): EditorResult {
    const content = this.#readText(path);
    if (oldStr.length === 0) return fail("`old_str` must not be empty");
    const positions: number[] = [];
    for (let at = content.indexOf(oldStr); at >= 0; at = content.indexOf(oldStr, at + 1)) positions.push(at);
    if (positions.length === 0) {
      return fail(`No replacement was performed: old_str did not appear verbatim in ${this.#display(path)}`);
    }
    const lineOf = (offset: number) => content.slice(0, offset).split("\n").length;
    if (positions.length > 1) {
      return fail(
        `No replacement was performed: old_str appears ${positions.length} times (lines ${positions.map(lineOf).join(", ")}) in ${this.#display(path)}; make it unique`,
      );
    }
    const at = positions[0]!;
    const updated = content.slice(0, at) + newStr + content.slice(at + oldStr.length);
    writeFileSync(path, updated);
    this.#remember(path, content);
    const line = lineOf(at);
    return {
      output: `Edited ${this.#display(path)}. Snippet:\n${this.#snippet(updated, line, newStr.split("\n").length)}`,
      isError: false,
    };
  }

  #insert(path: string, afterLine: number, text: string): EditorResult {
    const content = this.#readText(path);
    const lines = content.split("\n");
    if (afterLine < 0 || afterLine > lines.length) {
      return fail(`insert_line ${afterLine} is outside 0–${lines.length} (0 inserts at the top)`);
    }
    const inserted = text.split("\n");
    const updated = [...lines.slice(0, afterLine), ...inserted, ...lines.slice(afterLine)].join("\n");
    writeFileSync(path, updated);
    this.#remember(path, content);
    return {
      output: `Inserted ${inserted.length} line(s) after line ${afterLine} of ${this.#display(path)}. Snippet:\n${this.#snippet(updated, afterLine + 1, inserted.length)}`,
      isError: false,
    };
  }

  #undo(path: string): EditorResult {
    const previous = this.#history.get(path)?.pop();
    if (previous === undefined) return fail(`No edit to undo for ${this.#display(path)}`);
    if (previous === null) {
      rmSync(path, { force: true });
      return { output: `Undid the creation of ${this.#display(path)}; the file was removed`, isError: false };
    }
    writeFileSync(path, previous);
    return { output: `Undid the last edit of ${this.#display(path)}`, isError: false };
  }
}
