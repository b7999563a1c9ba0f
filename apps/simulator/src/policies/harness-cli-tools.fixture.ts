// Tool lists as four agent CLIs declare them to the model, written by hand from their public
// sources and docs (descriptions shortened): the parameter names, types and required lists are
// what the harness-agnostic policy reads, so those follow the originals.
import type { OfferedTool } from "../engine/offered-tools";

const object = (properties: Record<string, unknown>, required: string[]) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});
const str = (description: string) => ({ type: "string", description });
const num = (description: string) => ({ type: "number", description });
const bool = (description: string) => ({ type: "boolean", description });

/** Qwen Code (`@qwen-code/qwen-code`): Gemini CLI's tools, `is_background` required on the shell. */
export const QWEN_CODE_TOOLS: OfferedTool[] = [
  {
    name: "list_directory",
    description: "Lists the names of files and subdirectories directly within a specified directory path.",
    parameters: object(
      {
        path: str("The absolute path to the directory to list"),
        ignore: { type: "array", items: { type: "string" } },
      },
      ["path"],
    ),
  },
  {
    name: "read_file",
    description: "Reads and returns the content of a specified file.",
    parameters: object(
      {
        absolute_path: str("The absolute path to the file to read"),
        offset: num("Line to start at"),
        limit: num("Lines to read"),
      },
      ["absolute_path"],
    ),
  },
  {
    name: "search_file_content",
    description: "Searches for a regular expression pattern within the content of files.",
    parameters: object(
      {
        pattern: str("The regular expression"),
        path: str("Directory to search"),
        include: str("Glob filter"),
      },
      ["pattern"],
    ),
  },
  {
    name: "replace",
    description: "Replaces text within a file. Requires the exact literal text to replace, with context.",
    parameters: object(
      {
        file_path: str("The absolute path to the file to modify."),
        old_string: str("The exact literal text to replace."),
        new_string: str("The exact literal text to replace old_string with."),
        expected_replacements: num("Number of replacements expected."),
      },
      ["file_path", "old_string", "new_string"],
    ),
  },
  {
    name: "write_file",
    description: "Writes content to a specified file in the local filesystem.",
    parameters: object(
      {
        file_path: str("The absolute path to the file to write to."),
        content: str("The content to write to the file."),
      },
      ["file_path", "content"],
    ),
  },
  {
    name: "run_shell_command",
    description:
      "This tool executes a given shell command as `bash -c <command>`. Command can start background processes using `&`.",
    parameters: object(
      {
        command: str("Exact bash command to execute as `bash -c <command>`"),
        is_background: bool("Whether to run the command in background."),
        description: str("Brief description of the command for the user."),
        directory: str("(OPTIONAL) The directory to run the command in, relative to the project root."),
      },
      ["command", "is_background"],
    ),
  },
  {
    name: "save_memory",
    description: "Saves a specific piece of information or fact to your long-term memory.",
    parameters: object({ fact: str("The specific fact to remember.") }, ["fact"]),
  },
  {
    name: "todo_write",
    description: "Creates and manages a structured task list for the current coding session.",
    parameters: object({ todos: { type: "array", items: { type: "object" } } }, ["todos"]),
  },
];

/** Claude Code (`@anthropic-ai/claude-code`): PascalCase tools; `SlashCommand` also takes a `command`. */
export const CLAUDE_CODE_TOOLS: OfferedTool[] = [
  {
    name: "Task",
    description: "Launch a new agent to handle complex, multi-step tasks autonomously.",
    parameters: object(
      {
        description: str("A short (3-5 word) description of the task"),
        prompt: str("The task for the agent to perform"),
        subagent_type: str("The type of specialized agent"),
      },
      ["description", "prompt", "subagent_type"],
    ),
  },
  {
    name: "SlashCommand",
    description: "Execute a slash command within the main conversation.",
    parameters: object(
      { command: str('The slash command to execute with its arguments, e.g., "/review-pr 123"') },
      ["command"],
    ),
  },
  {
    name: "Bash",
    description: "Executes a given bash command in a persistent shell session with optional timeout.",
    parameters: object(
      {
        command: str("The command to execute"),
        timeout: num("Optional timeout in milliseconds (max 600000)"),
        description: str("Clear, concise description of what this command does in 5-10 words."),
        run_in_background: bool("Set to true to run this command in the background."),
      },
      ["command"],
    ),
  },
  {
    name: "BashOutput",
    description: "Retrieves output from a running or completed background bash shell.",
    parameters: object({ bash_id: str("The ID of the background shell"), filter: str("Regex filter") }, [
      "bash_id",
    ]),
  },
  {
    name: "Read",
    description: "Reads a file from the local filesystem.",
    parameters: object(
      {
        file_path: str("The absolute path to the file to read"),
        offset: num("Line to start at"),
        limit: num("Lines to read"),
      },
      ["file_path"],
    ),
  },
  {
    name: "Edit",
    description: "Performs exact string replacements in files.",
    parameters: object(
      {
        file_path: str("The absolute path to the file to modify"),
        old_string: str("The text to replace"),
        new_string: str("The text to replace it with"),
        replace_all: { type: "boolean", default: false, description: "Replace all occurences" },
      },
      ["file_path", "old_string", "new_string"],
    ),
  },
  {
    name: "Write",
    description:
      "Writes a file to the local filesystem. This tool will overwrite the existing file if there is one.",
    parameters: object(
      {
        file_path: str("The absolute path to the file to write (must be absolute, not relative)"),
        content: str("The content to write to the file"),
      },
      ["file_path", "content"],
    ),
  },
  {
    name: "NotebookEdit",
    description: "Completely replaces the contents of a specific cell in a Jupyter notebook.",
    parameters: object(
      {
        notebook_path: str("The absolute path to the notebook"),
        cell_id: str("The cell id"),
        new_source: str("The new source"),
      },
      ["notebook_path", "new_source"],
    ),
  },
  {
    name: "KillShell",
    description: "Kills a running background bash shell by its ID.",
    parameters: object({ shell_id: str("The ID of the background shell to kill") }, ["shell_id"]),
  },
];

/** Codex (`@openai/codex`): an argv `shell` (no write tool: files go through the shell or `apply_patch`). */
export const CODEX_TOOLS: OfferedTool[] = [
  {
    name: "shell",
    description: "Runs a shell command and returns its output.",
    parameters: object(
      {
        command: { type: "array", items: { type: "string" }, description: "The command to execute" },
        workdir: str("The working directory to execute the command in"),
        timeout_ms: num("The timeout for the command in milliseconds"),
        with_escalated_permissions: bool("Whether to request escalated permissions."),
        justification: str("Only set if with_escalated_permissions is true."),
      },
      ["command"],
    ),
  },
  {
    name: "update_plan",
    description: "Updates the task plan.",
    parameters: object({ explanation: str("Why"), plan: { type: "array", items: { type: "object" } } }, [
      "plan",
    ]),
  },
  {
    name: "apply_patch",
    description: "Use the `apply_patch` tool to edit files.",
    parameters: object({ input: str("The entire contents of the apply_patch command") }, ["input"]),
  },
  {
    name: "view_image",
    description: "Attach a local image (by filesystem path) to the conversation context for this turn.",
    parameters: object({ path: str("Local filesystem path to an image file") }, ["path"]),
  },
];

/** Codex with unified exec: `exec_command` takes one string, `write_stdin` feeds a running session. */
export const CODEX_EXEC_TOOLS: OfferedTool[] = [
  {
    name: "exec_command",
    description: "Runs a command in a PTY, returning output or a session ID for ongoing interaction.",
    parameters: object(
      {
        cmd: str("Shell command to execute."),
        workdir: str("Optional working directory to run the command in; defaults to the turn cwd."),
        shell: str("Shell binary to launch. Defaults to /bin/bash."),
        login: bool("Whether to run the shell with -l/-i semantics. Defaults to true."),
        yield_time_ms: num("How long to wait (in milliseconds) for output before yielding."),
        max_output_tokens: num("Maximum number of tokens to return."),
      },
      ["cmd"],
    ),
  },
  {
    name: "write_stdin",
    description: "Writes characters to an existing unified exec session and returns recent output.",
    parameters: object(
      {
        session_id: num("Identifier of the running unified exec session."),
        chars: str("Bytes to write to stdin (may be empty to poll)."),
      },
      ["session_id"],
    ),
  },
];

/** opencode (`opencode-ai`): lower-case tools, camelCase `filePath`, a required `description` on bash. */
export const OPENCODE_TOOLS: OfferedTool[] = [
  {
    name: "bash",
    description: "Executes a given bash command in a persistent shell session with optional timeout.",
    parameters: object(
      {
        command: str("The command to execute"),
        timeout: num("Optional timeout in milliseconds"),
        workdir: str("The working directory to run the command in."),
        description: str("Clear, concise description of what this command does in 5-10 words."),
      },
      ["command", "description"],
    ),
  },
  {
    name: "edit",
    description: "Performs exact string replacements in files.",
    parameters: object(
      {
        filePath: str("The absolute path to the file to modify"),
        oldString: str("The text to replace"),
        newString: str("The text to replace it with"),
        replaceAll: bool("Replace all occurrences of oldString"),
      },
      ["filePath", "oldString", "newString"],
    ),
  },
  {
    name: "glob",
    description: "Fast file pattern matching tool.",
    parameters: object({ pattern: str("The glob pattern"), path: str("The directory to search in") }, [
      "pattern",
    ]),
  },
  {
    name: "read",
    description: "Reads a file from the local filesystem.",
    parameters: object(
      {
        filePath: str("The path to the file to read"),
        offset: num("Line to start at"),
        limit: num("Lines to read"),
      },
      ["filePath"],
    ),
  },
  {
    name: "write",
    description: "Writes a file to the local filesystem.",
    parameters: object(
      {
        content: str("The content to write to the file"),
        filePath: str("The absolute path to the file to write"),
      },
      ["content", "filePath"],
    ),
  },
  {
    name: "todowrite",
    description: "Use this tool to create and manage a structured task list.",
    parameters: object({ todos: { type: "array", items: { type: "object" } } }, ["todos"]),
  },
];
