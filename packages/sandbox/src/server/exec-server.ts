import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import type {
  ExecErrorBody,
  ExecEvent,
  ExecRequest,
  ExecResponse,
  ExecResultByOp,
} from "../protocol/exec-protocol.types";
import { encodeJsonLine, JsonLineDecoder, SERVER_MAX_LINE_CHARS } from "../protocol/json-lines";
import { UnreadableFileError } from "./bounded-read";
import type { ExecServerConfig } from "./exec-server.types";
import { FileActions } from "./file-actions";
import { TOOLS_SCRATCH_SUBDIR, ToolDispatch } from "./tool-dispatch";
import { type JailStatus, probeJail } from "./tool-jail";
import { PathOutsideWorkspaceError } from "./workspace-path";

function errorBody(error: unknown): ExecErrorBody {
  if (error instanceof PathOutsideWorkspaceError) return { code: "forbidden", message: error.message };
  if (error instanceof UnreadableFileError) return { code: "bad_request", message: error.message };
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === "ENOENT") return { code: "not_found", message };
  // O_NOFOLLOW met a symlink swapped in after the path was checked.
  if (code === "ELOOP") return { code: "forbidden", message };
  if (code === "EISDIR" || code === "ENOTDIR") return { code: "bad_request", message };
  return { code: "internal", message };
}

/**
 * The execution server: listens on a Unix socket inside the sandbox and answers
 * newline-delimited JSON requests. Requests on one connection may overlap; each tool
 * session serializes its own calls. `cancel` aborts a running call by request id.
 */
export class ExecServer {
  readonly #config: ExecServerConfig;
  readonly #tools: ToolDispatch;
  readonly #files: FileActions;
  readonly #startedAt = Date.now();
  #server: Server | undefined;
  #listenedAfterMs = -1;

  readonly #isolation: JailStatus;

  constructor(config: ExecServerConfig) {
    // The jail binds this directory read-only, so it must exist before the first jail starts.
    mkdirSync(join(config.scratchDir, TOOLS_SCRATCH_SUBDIR), { recursive: true, mode: 0o755 });
    this.#isolation = probeJail(config.jail, config.workspaceRoot, (argv) => {
      const result = spawnSync(argv[0]!, argv.slice(1), {
        encoding: "utf8",
        stdio: ["ignore", "ignore", "pipe"],
      });
      return { status: result.status, stderr: result.stderr ?? String(result.error ?? "") };
    });
    this.#config = this.#isolation.toolJail ? config : { ...config, jail: undefined };
    this.#tools = new ToolDispatch(this.#config);
    this.#files = new FileActions(config.workspaceRoot);
  }

  listen(): Promise<void> {
    rmSync(this.#config.socketPath, { force: true });
    const server = createServer((socket) => this.#serve(socket));
    this.#server = server;
    return new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(this.#config.socketPath, () => {
        // performance.now() counts from this process's start, so this includes node's own boot.
        this.#listenedAfterMs = Math.round(performance.now() * 100) / 100;
        resolve();
      });
    });
  }

  close(): void {
    this.#tools.close();
    this.#server?.close();
  }

  #serve(socket: Socket): void {
    socket.setEncoding("utf8");
    const running = new Map<number, AbortController>();
    const send = (response: ExecResponse | ExecEvent) => {
      if (!socket.destroyed) socket.write(encodeJsonLine(response));
    };
    const decoder = new JsonLineDecoder(
      (value) => {
        const request = value as ExecRequest;
        if (request.op === "cancel") {
          const controller = running.get(request.targetId);
          controller?.abort();
          send({ id: request.id, ok: true, result: { cancelled: controller !== undefined } });
          return;
        }
        const controller = new AbortController();
        running.set(request.id, controller);
        this.#handle(request, controller.signal, send)
          .then(
            (result) => send({ id: request.id, ok: true, result }),
            (error: unknown) => send({ id: request.id, ok: false, error: errorBody(error) }),
          )
          .finally(() => running.delete(request.id));
      },
      (error) =>
        send({
          id: -1,
          ok: false,
          error: { code: "bad_request", message: `malformed request line: ${error.message}` },
        }),
      { maxLineChars: SERVER_MAX_LINE_CHARS },
    );
    socket.on("data", (chunk: string) => decoder.push(chunk));
    // A vanished client cannot read results; stop its work instead of letting it run on.
    socket.on("close", () => {
      for (const controller of running.values()) controller.abort();
    });
    socket.on("error", () => undefined);
  }

  async #handle(
    request: ExecRequest,
    signal: AbortSignal,
    send: (event: ExecEvent) => void,
  ): Promise<ExecResultByOp[keyof ExecResultByOp]> {
    switch (request.op) {
      case "health":
        // The host's readiness probe is the cue to warm up the shell: after the answer, so
        // loading node-pty and spawning bash overlap with the host's work, not its wait.
        if (this.#config.prestartBash) setImmediate(() => this.#tools.bash.start().catch(() => undefined));
        return {
          pid: process.pid,
          uptimeMs: Date.now() - this.#startedAt,
          listenedAfterMs: this.#listenedAfterMs,
          rssBytes: process.memoryUsage.rss(),
          sessions: this.#tools.sessionNames(),
          isolation: this.#isolation,
        };
      case "tool":
        return this.#tools.run(request.tool, request.args ?? {}, request.timeoutMs, signal);
      case "exec": {
        const { op: _op, id: _id, ...command } = request;
        return this.#tools.commands.run(command, signal);
      }
      case "spawn": {
        const { op: _op, id, ...spawned } = request;
        return this.#tools.processes.run(id, spawned, signal, {
          onStarted: () => send({ id, event: "started" }),
          onStdout: (chunk) => send({ id, event: "stdout", dataB64: chunk.toString("base64") }),
        });
      }
      case "stdin":
        return this.#tools.processes.write(request.targetId, Buffer.from(request.dataB64, "base64"));
      case "read_file":
        return { dataB64: this.#files.read(request.path).toString("base64") };
      case "write_file":
        return { sizeBytes: this.#files.write(request.path, Buffer.from(request.dataB64, "base64")) };
      case "list_files":
        return { entries: this.#files.list(request.path, request.maxDepth ?? 1) };
      case "tar_download":
        return { dataB64: (await this.#files.tarDownload(request.path)).toString("base64") };
      case "tar_upload":
        return {
          sizeBytes: await this.#files.tarUpload(request.path, Buffer.from(request.dataB64, "base64")),
        };
      case "cancel":
        return { cancelled: false };
      default: {
        const op: never = request;
        throw Object.assign(new Error(`unknown op ${JSON.stringify((op as { op: unknown }).op)}`), {
          code: "EINVAL",
        });
      }
    }
  }
}
