import type { ExecToolResult } from "../protocol/exec-protocol.types";
import { BashSession } from "./bash-session";
import { EditorTool } from "./editor-tool";
import { errorResult } from "./error-result";
import type { ExecServerConfig } from "./exec-server.types";
import { PythonSession } from "./python-session";

/** Owns the tool sessions of one sandbox and routes a tool call to the right one. */
export class ToolDispatch {
  readonly bash: BashSession;
  readonly python: PythonSession;
  readonly editor: EditorTool;
  readonly #config: ExecServerConfig;

  constructor(config: ExecServerConfig) {
    this.#config = config;
    const ulimits: string[] = [];
    if (config.cpuTimeSec !== undefined) {
      // Soft below hard: the kernel sends SIGXCPU ("CPU time limit exceeded", exit 152) at the
      // soft limit, which names the cause, and SIGKILL only a second later.
      const seconds = Math.max(1, Math.ceil(config.cpuTimeSec));
      ulimits.push(`-S -t ${seconds}`, `-H -t ${seconds + 1}`);
    }
    if (config.memoryBytes !== undefined) ulimits.push(`-v ${Math.floor(config.memoryBytes / 1024)}`);
    this.bash = new BashSession({
      cwd: config.workspaceRoot,
      env: config.env,
      scratchDir: config.scratchDir,
      shellPath: config.shellPath,
      initLines: [...ulimits.map((flag) => `ulimit ${flag}`), `cd '${config.workspaceRoot}'`],
      maxOutputBytes: config.maxOutputBytes,
      noOutputTimeoutMs: config.noOutputTimeoutMs,
    });
    this.python = new PythonSession({
      driverPath: config.pythonDriverPath,
      cwd: config.workspaceRoot,
      env: config.env,
      pythonPath: config.pythonPath,
      ulimitFlags: ulimits,
      maxOutputBytes: config.maxOutputBytes,
    });
    this.editor = new EditorTool(config.workspaceRoot);
  }

  sessionNames(): string[] {
    return [
      ...(this.bash.pid !== undefined ? ["bash"] : []),
      ...(this.python.pid !== undefined ? ["python"] : []),
    ];
  }

  async run(
    tool: string,
    args: Record<string, unknown>,
    timeoutMs: number | undefined,
    signal: AbortSignal,
  ): Promise<ExecToolResult> {
    const startedAt = performance.now();
    const options = { timeoutMs: timeoutMs ?? this.#config.defaultTimeoutMs, signal };
    switch (tool) {
      case "bash": {
        if (typeof args.command !== "string") return errorResult("bash needs a `command` string", startedAt);
        return this.bash.run(args.command, options);
      }
      case "python": {
        if (typeof args.code !== "string") return errorResult("python needs a `code` string", startedAt);
        return this.python.run(args.code, options);
      }
      case "editor": {
        const result = this.editor.run(args);
        return {
          ...result,
          exitCode: result.isError ? 1 : 0,
          truncated: false,
          timedOut: false,
          durationMs: performance.now() - startedAt,
        };
      }
      default:
        return errorResult(`unknown tool \`${tool}\`; available: bash, python, editor`, startedAt);
    }
  }

  close(): void {
    this.bash.close();
    this.python.close();
  }
}
