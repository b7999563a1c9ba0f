import type { ToolSpec } from "@raas/engine";

const BASH_TOOL_SPEC: ToolSpec = {
  name: "bash",
  description:
    "Run a command in a persistent bash shell inside the sandbox (working directory /workspace). " +
    "State persists between calls: cwd, environment variables, functions and background jobs. " +
    "Returns combined stdout/stderr and the exit code. Long output is truncated in the middle with a note. " +
    "A command that runs past its timeout is interrupted (Ctrl-C, then killed); interactive programs that " +
    "wait for keyboard input are not supported and are interrupted. No network access.",
  parameters: {
    type: "object",
    properties: {
      command: { type: "string", description: "The bash command(s) to run; may span several lines." },
    },
    required: ["command"],
    additionalProperties: false,
  },
};

const PYTHON_TOOL_SPEC: ToolSpec = {
  name: "python",
  description:
    "Run Python 3 code in a persistent interpreter: variables, functions and imports survive between calls. " +
    "Returns printed output, the value of a final expression, or the traceback of an exception. " +
    "A cell that runs past its timeout receives KeyboardInterrupt; the interpreter is kept.",
  parameters: {
    type: "object",
    properties: {
      code: { type: "string", description: "Python source to execute." },
    },
    required: ["code"],
    additionalProperties: false,
  },
};

const EDITOR_TOOL_SPEC: ToolSpec = {
  name: "editor",
  description:
    "View and edit files inside /workspace (paths outside it are refused).\n" +
    "- view: show a file with line numbers (optionally view_range [start, end], end -1 = to the end) or list a directory 2 levels deep.\n" +
    "- create: create a new file with file_text (fails if it exists).\n" +
    "- str_replace: replace old_str with new_str; old_str must occur exactly once, verbatim (whitespace included).\n" +
    "- insert: insert new_str after line insert_line (0 = at the top).\n" +
    "- undo_edit: revert the last edit of the file.",
  parameters: {
    type: "object",
    properties: {
      command: { type: "string", enum: ["view", "create", "str_replace", "insert", "undo_edit"] },
      path: { type: "string", description: "Absolute path under /workspace, or a path relative to it." },
      file_text: { type: "string", description: "Content of the new file (create)." },
      old_str: { type: "string", description: "Exact text to replace (str_replace)." },
      new_str: { type: "string", description: "Replacement text (str_replace) or text to insert (insert)." },
      insert_line: { type: "integer", minimum: 0, description: "Line after which to insert (insert)." },
      view_range: {
        type: "array",
        items: { type: "integer" },
        minItems: 2,
        maxItems: 2,
        description:
          "[start, end] line range, 1-based and inclusive; end -1 means the end of the file (view).",
      },
    },
    required: ["command", "path"],
    additionalProperties: false,
  },
};

/** Every tool a RaaS sandbox serves, in the order an agent prompt should list them. */
export const SANDBOX_TOOL_SPECS: readonly ToolSpec[] = [BASH_TOOL_SPEC, PYTHON_TOOL_SPEC, EDITOR_TOOL_SPEC];
