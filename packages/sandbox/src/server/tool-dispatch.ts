import { join } from "node:path";
import type { ExecToolResult } from "../protocol/exec-protocol.types";
import { BashSession } from "./bash-session";
import { CommandRunner } from "./command-runner";
import { EditorTool } from "./editor-tool";
import { errorResult } from "./error-result";
import type { ExecServerConfig } from "./exec-server.types";
import { ProcessRunner } from "./process-runner";
import { PythonSession } from "./python-session";
import { jailArgv } from "./tool-jail";

/** Subdirectory of the scratch directory the jailed shell reads its scripts from. */
export const TOOLS_SCRATCH_SUBDIR = "tools";

/**
 * Owns the tool sessions of one sandbox and routes a tool call to the right one. Sessions and
 * commands run in the tool jail when the config has one (see tool-jail.ts).
 */
export class ToolDispatch {
  readonly bash: BashSession;
  readonly python: PythonSession;
  readonly editor: EditorTool;
  readonly commands: CommandRunner;
  readonly processes: ProcessRunner;
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
    // `ulimit -f` counts 1024-byte blocks in bash but 512-byte blocks in a POSIX sh (dash, bash as sh).
    const fileSize = (blockBytes: number) =>
      config.fileSizeBytes === undefined ? [] : [`-f ${Math.ceil(config.fileSizeBytes / blockBytes)}`];
    const shUlimits = [...ulimits, ...fileSize(512)];
    const { jail } = config;
    const toolsDir = join(config.scratchDir, TOOLS_SCRATCH_SUBDIR); // created by the server
    const session = jail
      ? {
          isJailed: true,
          wrapArgv: (argv: string[]) =>
            jailArgv(jail, argv, {
              cwd: config.workspaceRoot,
              workspaceRoot: config.workspaceRoot,
              interactive: true,
            }),
        }
      : {};
    this.bash = new BashSession({
      ...session,
      cwd: config.workspaceRoot,
      env: config.env,
      scratchDir: toolsDir,
      shellPath: config.shellPath,
      ...(config.shellLauncher ? { shellLauncher: config.shellLauncher } : {}),
      initLines: [
        ...[...ulimits, ...fileSize(1024)].map((flag) => `ulimit ${flag}`),
        `cd '${config.workspaceRoot}'`,
      ],
      maxOutputBytes: config.maxOutputBytes,
      noOutputTimeoutMs: config.noOutputTimeoutMs,
    });
    this.python = new PythonSession({
      ...session,
      driverPath: config.pythonDriverPath,
      cwd: config.workspaceRoot,
      env: config.env,
      pythonPath: config.pythonPath,
      ulimitFlags: shUlimits,
      maxOutputBytes: config.maxOutputBytes,
    });
    this.editor = new EditorTool(config.workspaceRoot);
    const commandOptions = {
      workspaceRoot: config.workspaceRoot,
      env: config.env,
      ...(jail ? { jail } : {}),
      ulimitFlags: shUlimits,
      defaultTimeoutMs: config.defaultTimeoutMs,
      defaultMaxOutputBytes: config.execMaxOutputBytes,
    };
    this.commands = new CommandRunner(commandOptions);
    this.processes = new ProcessRunner(commandOptions);
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
    this.processes.close();
  }
}
