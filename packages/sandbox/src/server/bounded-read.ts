import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
} from "node:fs";
import { isAbsolute, relative } from "node:path";
import { PathOutsideWorkspaceError, resolveInWorkspace } from "./workspace-path";

/** Largest file the server reads whole (file actions, the editor's view): 16 MiB. */
const MAX_READ_BYTES = 16 * 1024 ** 2;

/** A read the server refuses: not a regular file, or larger than the cap. */
export class UnreadableFileError extends Error {
  override readonly name = "UnreadableFileError";
}

/**
 * Reads a workspace file whole, bounded: stat first (a FIFO or device would block the server or
 * never end; a huge file would exhaust its memory), open without following a final symlink and
 * without blocking, check the opened descriptor again, and prove from /proc/self/fd that the file
 * actually opened lies inside the workspace — a directory swapped for a symlink between the path
 * check and the open cannot redirect the read.
 */
export function readWorkspaceFile(workspaceRoot: string, path: string, maxBytes = MAX_READ_BYTES): Buffer {
  const target = resolveInWorkspace(workspaceRoot, path);
  refuseUnreadable(path, lstatSync(target), maxBytes);
  const fd = openSync(target, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    refuseUnreadable(path, stat, maxBytes);
    const root = realpathSync(workspaceRoot);
    const opened = readlinkSync(`/proc/self/fd/${fd}`);
    const rel = relative(root, opened);
    if (rel.startsWith("..") || isAbsolute(rel)) {
      throw new PathOutsideWorkspaceError(`path ${path} resolved outside the workspace ${workspaceRoot}`);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.max(1, Math.min(stat.size - total, maxBytes - total) + 1, 65_536));
      const count = readSync(fd, chunk, 0, chunk.length, null);
      if (count === 0) break;
      total += count;
      // The file grew after the stat.
      if (total > maxBytes) {
        throw new UnreadableFileError(`${path} grew past the ${maxBytes}-byte read limit while it was read`);
      }
      chunks.push(chunk.subarray(0, count));
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

function refuseUnreadable(path: string, stat: { isFile(): boolean; size: number }, maxBytes: number): void {
  if (!stat.isFile()) {
    throw new UnreadableFileError(
      `${path} is not a regular file (a directory, FIFO, socket or device); only regular files can be read`,
    );
  }
  if (stat.size > maxBytes) {
    throw new UnreadableFileError(
      `${path} is ${stat.size} bytes, more than the ${maxBytes}-byte read limit; read it in parts with a command (head, tail, sed -n)`,
    );
  }
}
