import { spawn } from "node:child_process";
import { lstatSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import type { ExecFileEntry } from "../protocol/exec-protocol.types";
import { readWorkspaceFile } from "./bounded-read";
import { resolveInWorkspace } from "./workspace-path";

/**
 * Workspace file actions of the execution server. They run inside the sandbox so that the
 * sandbox's view of the filesystem (and its symlinks) is what gets read, never the host's.
 */
export class FileActions {
  constructor(readonly workspaceRoot: string) {}

  read(path: string): Buffer {
    return readWorkspaceFile(this.workspaceRoot, path);
  }

  write(path: string, data: Buffer): number {
    const target = resolveInWorkspace(this.workspaceRoot, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, data);
    return data.length;
  }

  /** Entries under `path`, depth-first, up to `maxDepth` levels (1 = direct children). */
  list(path: string, maxDepth: number): ExecFileEntry[] {
    const root = resolveInWorkspace(this.workspaceRoot, ".");
    const start = resolveInWorkspace(this.workspaceRoot, path);
    const entries: ExecFileEntry[] = [];
    const walk = (dir: string, depth: number) => {
      for (const name of readdirSync(dir).sort()) {
        const full = join(dir, name);
        const stat = lstatSync(full);
        const type = stat.isSymbolicLink()
          ? "symlink"
          : stat.isDirectory()
            ? "dir"
            : stat.isFile()
              ? "file"
              : "other";
        entries.push({ path: relative(root, full), type, sizeBytes: stat.size });
        if (type === "dir" && depth < maxDepth) walk(full, depth + 1);
      }
    };
    walk(start, 1);
    return entries;
  }

  /** A gzip-compressed tar of `path` (relative names), made by the sandbox's own `tar`. */
  tarDownload(path: string): Promise<Buffer> {
    const dir = resolveInWorkspace(this.workspaceRoot, path);
    return runTar(["-czf", "-", "-C", dir, "."], undefined);
  }

  /** Extracts a (gzip) tar into `path`; tar itself refuses members that climb out with `..`. */
  async tarUpload(path: string, data: Buffer): Promise<number> {
    const dir = resolveInWorkspace(this.workspaceRoot, path);
    mkdirSync(dir, { recursive: true });
    await runTar(["-xzf", "-", "-C", dir, "--no-same-owner", "--no-same-permissions"], data);
    return data.length;
  }
}

function runTar(args: string[], input: Buffer | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn("tar", args, { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else
        reject(
          new Error(`tar ${args[0]} failed (exit ${code}): ${Buffer.concat(err).toString("utf8").trim()}`),
        );
    });
    child.stdin.end(input);
  });
}
